// Compiler hints for the hot paths.
#ifndef ENGINE_CORE_COMPILER_H
#define ENGINE_CORE_COMPILER_H

#define ALWAYS_INLINE inline __attribute__((always_inline))

// Keep a function's loops scalar. Where a loop reads back, as one wide vector load, values
// the code has just written as narrow scalar stores, the processor cannot forward the stores
// to the load and stalls until they reach the cache: slower than the scalar loop. (GCC only;
// clang's vectorizer is left alone.)
#if defined(__GNUC__) && !defined(__clang__)
#define NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#else
#define NO_VECTORIZE
#endif

#endif
