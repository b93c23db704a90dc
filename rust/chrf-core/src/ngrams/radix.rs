//! A least-significant-digit radix sort of the buckets of frequent leading n-grams in long
//! texts.
//!
//! A bucket holds the windows whose keys share their top bits. In a long text the buckets of
//! frequent leading n-grams grow with the text, and so did their comparison sorts: a term in
//! the logarithm of the text's length per window. A radix sort costs the same per window
//! whatever the bucket's size, a counting pass and one scatter per byte of the bits in which
//! the bucket's keys can differ, so from some size on it is the cheaper one (see
//! [`worth_it`]). The side tag (bit 0) rides along unsorted: the tally does not care in which
//! order equal windows of the two sides come.

use super::keys::Key;

/// The byte digits of a field of `width` bits.
fn digits(width: u32) -> u32 {
    width.div_ceil(8)
}

/// Whether a bucket of `len` keys that differ in `width` bits should be radix sorted: when it
/// has more than 64 keys per 2^digits. A radix sort costs the same per key whatever the
/// bucket's size, and from that size on less than the comparison sort (on long German text,
/// whose keys differ in 24 to 27 bits: benches/NOTES.md), which in the smaller buckets costs
/// at most what it costs at that size. So the cost per window stays bounded however long the
/// text.
pub fn worth_it(len: usize, width: u32) -> bool {
    (1..=MAX_DIGITS as u32 * 8).contains(&width) && len > 64 << digits(width)
}

/// Digits of 64-bit keys (128-bit keys are radix sorted only once narrowed to 64 bits: see
/// `sort_narrowed_buckets`).
const MAX_DIGITS: usize = 8;

/// Sorts `keys` by their bits `low_bit..low_bit + width` (`worth_it` said yes), using `spare`,
/// as long as `keys`, for the scatters; keys equal in those bits may come in any order.
pub fn sort<K: Key>(keys: &mut [K], spare: &mut [K], low_bit: u32, width: u32) {
    match digits(width) {
        1 => sort_by::<K, 1>(keys, spare, low_bit),
        2 => sort_by::<K, 2>(keys, spare, low_bit),
        3 => sort_by::<K, 3>(keys, spare, low_bit),
        4 => sort_by::<K, 4>(keys, spare, low_bit),
        5 => sort_by::<K, 5>(keys, spare, low_bit),
        6 => sort_by::<K, 6>(keys, spare, low_bit),
        7 => sort_by::<K, 7>(keys, spare, low_bit),
        _ => sort_by::<K, MAX_DIGITS>(keys, spare, low_bit),
    }
}

/// [`sort`] by `DIGITS` bytes, a number known at compile time so that the counting pass
/// unrolls.
fn sort_by<K: Key, const DIGITS: usize>(keys: &mut [K], spare: &mut [K], low_bit: u32) {
    let digit = |key: K, d: usize| key.low_bits(low_bit + 8 * d as u32) % 256;
    let mut counts = [[0u32; 256]; DIGITS];
    for &key in keys.iter() {
        for (d, count) in counts.iter_mut().enumerate() {
            count[digit(key, d)] += 1;
        }
    }
    let (mut from, mut to) = (&mut keys[..], &mut spare[..]);
    let mut in_spare = false;
    for (d, count) in counts.iter_mut().enumerate() {
        // A digit all the keys share moves nothing.
        if count[digit(from[0], d)] as usize == from.len() {
            continue;
        }
        let mut start = 0;
        for slot in count.iter_mut() {
            (*slot, start) = (start, start + *slot);
        }
        for &key in from.iter() {
            let slot = &mut count[digit(key, d)];
            to[*slot as usize] = key;
            *slot += 1;
        }
        std::mem::swap(&mut from, &mut to);
        in_spare = !in_spare;
    }
    if in_spare {
        keys.copy_from_slice(spare);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    #[test]
    fn sorts_by_the_field_and_keeps_every_key() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for (low_bit, width) in [(1u32, 1u32), (22, 8), (22, 24), (22, 27), (5, 40), (1, 63)] {
            for len in [1, 2, 3, 100, 5000] {
                // A bucket: the bits above the field shared, few values in the field's top
                // digit and many equal fields, as in a bucket of frequent n-grams; a tag in
                // bit 0.
                let field = u64::MAX >> (64 - width);
                let shared = (low_bit + width < 64).then(|| 0xA5u64 << (low_bit + width));
                let mut keys: Vec<u64> = (0..len)
                    .map(|_| {
                        let value = if next().is_multiple_of(4) {
                            5
                        } else {
                            next() >> (64 - width)
                        };
                        let value = value & field & !(0xF << width.saturating_sub(4));
                        shared.unwrap_or(0) | (value << low_bit) | (next() & 1)
                    })
                    .collect();
                let before = keys.clone();
                sort(&mut keys, &mut vec![0; len], low_bit, width);
                let field_of = |key: &u64| (key >> low_bit) & field;
                assert!(keys.windows(2).all(|w| field_of(&w[0]) <= field_of(&w[1])));
                let (mut got, mut expected) = (keys, before);
                got.sort_unstable();
                expected.sort_unstable();
                assert_eq!(got, expected, "bits {low_bit}+{width}, {len} keys");
            }
        }
    }

    #[test]
    fn only_buckets_large_for_their_digits_are_worth_it() {
        assert!(!worth_it(512, 24) && worth_it(513, 24));
        assert!(!worth_it(1024, 27) && worth_it(1025, 27));
        // No field to sort by.
        assert!(!worth_it(1 << 30, 0));
    }
}
