//! Char ids with ASCII as its own ids, 64 bytes at a time in AVX-512 registers, where the
//! processor has AVX-512F and BW (see [`crate::isa::runs_avx512`]).
//!
//! A block's code points of one and two bytes are decoded in every lane at once; continuation
//! bytes, and whitespace unless it is kept, are compressed away; the code points are stored as
//! ids, ASCII's being themselves, and only the others are then given theirs by the table, one
//! by one. Where the scalar loop branches on each code point's length and on ASCII, and
//! mispredicts at every change between scripts, this has no branch on a code point. A block
//! holding a code point of three or four bytes is left to the scalar loop. Whitespace left out
//! takes no id here, so later ids may be one or two below the scalar loop's: ids only tell code
//! points apart, and tell them apart the same.

/// What the blocks ask of the table they write ids from.
pub(super) trait Table {
    /// The id of a code point past ASCII.
    fn id_past_ascii(&mut self, code_point: u32) -> u32;
    /// Writes the ids of a part of the text with the scalar loop, as the blocks would; returns
    /// their number.
    fn write_scalar<const WITH_WHITESPACE: bool>(&mut self, part: &str, out: &mut [u32]) -> usize;
}

/// Writes the id of each of `text`'s units (see [`crate::text::for_each_char_unit`]) into `out`,
/// which has room for them all, with ASCII as its own ids, and returns their number, where the
/// processor has what this takes; else returns `None`, having written nothing.
pub(super) fn write_ids<T: Table, const WITH_WHITESPACE: bool>(
    table: &mut T,
    text: &str,
    out: &mut [u32],
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if crate::isa::runs_avx512() {
        // SAFETY: `runs_avx512()` is true only where the processor has AVX-512F and BW.
        #[allow(unsafe_code)]
        return Some(unsafe { avx512::write_ids::<T, WITH_WHITESPACE>(table, text, out) });
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (table, text, out);
    None
}

#[cfg(target_arch = "x86_64")]
pub(super) mod avx512 {
    use super::Table;
    use std::arch::x86_64::{
        __m512i, _mm512_and_si512, _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu32_mask,
        _mm512_cmpge_epu8_mask, _mm512_cmple_epu8_mask, _mm512_cvtepu8_epi32,
        _mm512_extracti32x4_epi32, _mm512_mask_mov_epi32, _mm512_mask_storeu_epi32,
        _mm512_maskz_compress_epi32, _mm512_maskz_loadu_epi8, _mm512_or_si512, _mm512_set1_epi32,
        _mm512_set1_epi8, _mm512_slli_epi32, _mm512_sub_epi8,
    };

    /// The bytes a block holds: one to a lane of a register.
    const BLOCK: usize = 64;
    /// The code points of a group: one to a 32-bit lane.
    const GROUP: usize = 16;

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn write_ids<T: Table, const WITH_WHITESPACE: bool>(
        table: &mut T,
        text: &str,
        out: &mut [u32],
    ) -> usize {
        let (mut at, mut written) = (0, 0);
        while let Some(rest) = text.as_bytes().get(at..).filter(|rest| !rest.is_empty()) {
            let block = Block::load(rest);
            let Some(out) = out.get_mut(written..) else {
                break;
            };
            if let Some(decoded) = block.decode::<WITH_WHITESPACE>() {
                written += block.write(table, &decoded, out);
                at += decoded.len;
            } else {
                // The block's end, or the first char boundary after it.
                let end = (at + BLOCK..text.len())
                    .find(|&end| text.is_char_boundary(end))
                    .unwrap_or(text.len());
                let Some(part) = text.get(at..end) else {
                    break;
                };
                written += table.write_scalar::<WITH_WHITESPACE>(part, out);
                at = end;
            }
        }
        written
    }

    /// What a block decodes: its first `len` bytes; the lanes of the units among them, each at
    /// its first byte; and the lanes of lead bytes.
    struct Decoded {
        len: usize,
        units: u64,
        leads: u64,
    }

    /// The next 64 bytes of a text, from a char boundary, and the bytes one after each.
    struct Block {
        bytes: __m512i,
        next: __m512i,
        /// The lanes inside the text.
        inside: u64,
    }

    impl Block {
        #[target_feature(enable = "avx512f,avx512bw")]
        fn load(rest: &[u8]) -> Self {
            let next = rest.get(1..).unwrap_or_default();
            let lanes = |len: usize| u64::MAX.checked_shr((BLOCK - len.min(BLOCK)) as u32);
            let inside = lanes(rest.len()).unwrap_or(0);
            // SAFETY: a masked load reads only its lanes, here the bytes of the slice.
            #[allow(unsafe_code)]
            unsafe {
                Self {
                    bytes: _mm512_maskz_loadu_epi8(inside, rest.as_ptr().cast()),
                    next: _mm512_maskz_loadu_epi8(
                        lanes(next.len()).unwrap_or(0),
                        next.as_ptr().cast(),
                    ),
                    inside,
                }
            }
        }

        /// What the block decodes: all its bytes but a last lead byte, whose code point ends in
        /// the next block; `None` for a block with a code point of three or four bytes.
        #[target_feature(enable = "avx512f,avx512bw")]
        fn decode<const WITH_WHITESPACE: bool>(&self) -> Option<Decoded> {
            let at_least =
                |byte: u8| _mm512_cmpge_epu8_mask(self.bytes, _mm512_set1_epi8(byte as i8));
            if at_least(0xE0) & self.inside != 0 {
                return None;
            }
            let leads = at_least(0xC0) & self.inside;
            let cut = u64::from(leads >> (BLOCK - 1) == 1);
            let decoded = self.inside & !(cut << (BLOCK - 1));
            let continuations = at_least(0x80) & !leads;
            let mut units = decoded & !continuations;
            if !WITH_WHITESPACE {
                units &= !self.whitespace();
            }
            Some(Decoded {
                len: decoded.count_ones() as usize,
                units,
                leads,
            })
        }

        /// The lanes of whitespace code points (see [`crate::text::is_python_whitespace`]): of
        /// ASCII, 0x09-0x0D and 0x1C-0x20; of two bytes, U+0085 and U+00A0 (C2 85, C2 A0).
        #[target_feature(enable = "avx512f,avx512bw")]
        fn whitespace(&self) -> u64 {
            let within = |from: u8, to: u8| {
                let above = _mm512_sub_epi8(self.bytes, _mm512_set1_epi8(from as i8));
                _mm512_cmple_epu8_mask(above, _mm512_set1_epi8((to - from) as i8))
            };
            let is = |bytes: __m512i, byte: u8| {
                _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(byte as i8))
            };
            within(0x09, 0x0D)
                | within(0x1C, 0x20)
                | is(self.bytes, 0xC2) & (is(self.next, 0x85) | is(self.next, 0xA0))
        }

        /// Writes the ids of the units `decoded` found into `out`; returns their number.
        #[target_feature(enable = "avx512f,avx512bw")]
        fn write<T: Table>(&self, table: &mut T, decoded: &Decoded, out: &mut [u32]) -> usize {
            let Decoded { units, leads, .. } = *decoded;
            let quarters = |bytes: __m512i| {
                [
                    _mm512_extracti32x4_epi32::<0>(bytes),
                    _mm512_extracti32x4_epi32::<1>(bytes),
                    _mm512_extracti32x4_epi32::<2>(bytes),
                    _mm512_extracti32x4_epi32::<3>(bytes),
                ]
            };
            let mut written = 0;
            for (group, (bytes, next)) in quarters(self.bytes)
                .into_iter()
                .zip(quarters(self.next))
                .enumerate()
            {
                let shift = GROUP * group;
                let (bytes, next) = (_mm512_cvtepu8_epi32(bytes), _mm512_cvtepu8_epi32(next));
                // A lead's code point: its low 5 bits, then the next byte's low 6.
                let low = |v: __m512i, bits: i32| _mm512_and_si512(v, _mm512_set1_epi32(bits));
                let two =
                    _mm512_or_si512(_mm512_slli_epi32::<6>(low(bytes, 0x1F)), low(next, 0x3F));
                let code_points = _mm512_mask_mov_epi32(bytes, (leads >> shift) as u16, two);
                let kept = (units >> shift) as u16;
                let count = kept.count_ones() as usize;
                let Some(out) = out.get_mut(written..written + count) else {
                    break;
                };
                let packed = _mm512_maskz_compress_epi32(kept, code_points);
                let filled = ((1_u32 << count) - 1) as u16;
                // SAFETY: the store writes the `count` lanes of `filled`, the slice's length.
                #[allow(unsafe_code)]
                unsafe {
                    _mm512_mask_storeu_epi32(out.as_mut_ptr().cast(), filled, packed);
                }
                let mut past_ascii =
                    _mm512_cmpge_epu32_mask(packed, _mm512_set1_epi32(0x80)) & filled;
                while past_ascii != 0 {
                    if let Some(slot) = out.get_mut(past_ascii.trailing_zeros() as usize) {
                        *slot = table.id_past_ascii(*slot);
                    }
                    past_ascii &= past_ascii - 1;
                }
                written += count;
            }
            written
        }
    }
}
