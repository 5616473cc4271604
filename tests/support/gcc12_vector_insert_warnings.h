#pragma once
/// @file gcc12_vector_insert_warnings.h
/// gcc 12 at -O2/-O3 reports std::vector::insert of small byte vectors as out of bounds (known
/// false positives of its -Warray-bounds and -Wstringop-* on inlined memcpy). Tests that build
/// frames by inserting header bytes include this first.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
