/* An allocator that refuses one allocation: preloaded (LD_PRELOAD) into a child of the
 * failing-allocation tests, it passes every malloc, calloc, realloc and aligned allocation on to
 * glibc, except the k-th of at least `threshold` bytes since fail_kth() was called, which gets
 * NULL as when memory has run out. Rust's, Python's and NumPy's allocations all come here. */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_memalign(size_t, size_t);

static size_t threshold, kth, seen, refused;

/* From now on, refuse the k-th allocation of at least `from` bytes (from 0: count none). */
void fail_kth(size_t from, size_t k) {
    __atomic_store_n(&seen, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&kth, k, __ATOMIC_SEQ_CST);
    __atomic_store_n(&threshold, from, __ATOMIC_SEQ_CST);
}

/* How many allocations of at least `from` bytes were made (or refused) since fail_kth(). */
size_t large_count(void) { return __atomic_load_n(&seen, __ATOMIC_SEQ_CST); }

/* How many allocations were refused since the process started. */
size_t refused_count(void) { return __atomic_load_n(&refused, __ATOMIC_SEQ_CST); }

static int refuse(size_t size) {
    size_t from = __atomic_load_n(&threshold, __ATOMIC_SEQ_CST);
    if (from == 0 || size < from) return 0;
    if (__atomic_add_fetch(&seen, 1, __ATOMIC_SEQ_CST) != __atomic_load_n(&kth, __ATOMIC_SEQ_CST))
        return 0;
    __atomic_add_fetch(&refused, 1, __ATOMIC_SEQ_CST);
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t size) { return refuse(size) ? NULL : __libc_malloc(size); }
void *realloc(void *p, size_t size) { return refuse(size) ? NULL : __libc_realloc(p, size); }
void *calloc(size_t n, size_t each) {
    size_t size;
    if (__builtin_mul_overflow(n, each, &size)) size = SIZE_MAX;
    return refuse(size) ? NULL : __libc_calloc(n, each);
}
void *memalign(size_t align, size_t size) {
    return refuse(size) ? NULL : __libc_memalign(align, size);
}
void *aligned_alloc(size_t align, size_t size) {
    return refuse(size) ? NULL : __libc_memalign(align, size);
}
int posix_memalign(void **out, size_t align, size_t size) {
    if (refuse(size)) return ENOMEM;
    void *p = __libc_memalign(align, size);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}
