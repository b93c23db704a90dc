//! Fallible allocation: a buffer whose size grows with the input is reserved with `try_reserve`,
//! so that an input too large for the memory the process may use is an error, not an abort.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

use crate::ChrfError;

/// The error for a buffer of `elements` values of `T` that could not be had.
pub(crate) fn out_of_memory<T>(elements: usize) -> ChrfError {
    ChrfError::OutOfMemory {
        bytes: elements.saturating_mul(size_of::<T>()),
    }
}

/// Makes room for `additional` more elements.
pub(crate) fn reserve<T>(vec: &mut Vec<T>, additional: usize) -> Result<(), ChrfError> {
    vec.try_reserve(additional)
        .map_err(|_| out_of_memory::<T>(vec.len().saturating_add(additional)))
}

/// Appends one element, growing the vector fallibly (amortised doubling, as `push` does).
#[inline]
pub(crate) fn push<T>(vec: &mut Vec<T>, value: T) -> Result<(), ChrfError> {
    if vec.len() == vec.capacity() {
        reserve(vec, 1)?;
    }
    vec.push(value);
    Ok(())
}

/// A vector of `len` copies of `value`.
pub(crate) fn filled<T: Clone>(len: usize, value: T) -> Result<Vec<T>, ChrfError> {
    let mut vec = Vec::new();
    refill(&mut vec, len, value)?;
    Ok(vec)
}

/// A boxed array of `N` copies of `value`.
pub(crate) fn boxed_array<T: Clone, const N: usize>(value: T) -> Result<Box<[T; N]>, ChrfError> {
    let slice = filled(N, value)?.into_boxed_slice();
    // A slice of exactly N elements always converts.
    slice.try_into().map_err(|_| out_of_memory::<T>(N))
}

/// Makes `vec` hold exactly `len` copies of `value`, reusing its buffer when it is large enough.
pub(crate) fn refill<T: Clone>(vec: &mut Vec<T>, len: usize, value: T) -> Result<(), ChrfError> {
    vec.clear();
    vec.try_reserve_exact(len)
        .map_err(|_| out_of_memory::<T>(len))?;
    vec.resize(len, value);
    Ok(())
}

/// Makes `vec` hold `len` elements whose values do not matter (every one is about to be
/// overwritten): only the elements it grows by are written, with `value`.
pub(crate) fn resize_for_overwrite<T: Clone>(
    vec: &mut Vec<T>,
    len: usize,
    value: T,
) -> Result<(), ChrfError> {
    if len > vec.len() {
        reserve(vec, len - vec.len())?;
    }
    vec.resize(len, value);
    Ok(())
}

/// Makes room for `additional` more entries in a hash map.
pub(crate) fn reserve_map<K: Eq + Hash, V, S: BuildHasher>(
    map: &mut HashMap<K, V, S>,
    additional: usize,
) -> Result<(), ChrfError> {
    map.try_reserve(additional)
        .map_err(|_| out_of_memory::<(K, V)>(map.len().saturating_add(additional)))
}

/// The heap bytes a vector holds on to.
pub(crate) fn held<T>(vec: &Vec<T>) -> usize {
    vec.capacity() * size_of::<T>()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use rustc_hash::FxHashMap;

    #[test]
    fn impossible_reservations_are_out_of_memory_errors() {
        let mut bytes: Vec<u8> = Vec::new();
        // More than isize::MAX bytes: a capacity overflow, refused before asking the allocator.
        assert_eq!(
            reserve(&mut bytes, usize::MAX),
            Err(ChrfError::OutOfMemory { bytes: usize::MAX })
        );
        assert!(matches!(
            filled(usize::MAX / 8, 0u128),
            Err(ChrfError::OutOfMemory { .. })
        ));
        let mut map: FxHashMap<u64, u32> = FxHashMap::default();
        assert!(matches!(
            reserve_map(&mut map, usize::MAX / 2),
            Err(ChrfError::OutOfMemory { .. })
        ));
        // The allocator's own refusal: isize::MAX bytes pass the capacity check but no system
        // has that much address space.
        let mut big: Vec<u8> = Vec::new();
        assert_eq!(
            reserve(&mut big, isize::MAX as usize),
            Err(ChrfError::OutOfMemory {
                bytes: isize::MAX as usize
            })
        );
    }

    #[test]
    fn push_and_refill_reuse_the_buffer() {
        let mut vec = Vec::new();
        for i in 0..100u32 {
            push(&mut vec, i).unwrap();
        }
        assert_eq!(vec.len(), 100);
        refill(&mut vec, 3, 7).unwrap();
        assert_eq!(vec, vec![7, 7, 7]);
        assert!(vec.capacity() >= 100);
    }

    #[test]
    fn resize_for_overwrite_writes_only_what_it_grows_by() {
        let mut vec = vec![1u32, 2, 3];
        resize_for_overwrite(&mut vec, 5, 0).unwrap();
        assert_eq!(vec, vec![1, 2, 3, 0, 0]);
        resize_for_overwrite(&mut vec, 2, 0).unwrap();
        assert_eq!(vec, vec![1, 2]);
        assert!(vec.capacity() >= 5);
        assert!(matches!(
            resize_for_overwrite(&mut vec, usize::MAX / 2, 0),
            Err(ChrfError::OutOfMemory { .. })
        ));
    }
}
