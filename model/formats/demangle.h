// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Kernel names that a trace gives mangled, made readable: ROCm's tracers pass a kernel's symbol on
// where their own demangler refuses it (composable-kernel templates past its length limit, C++23's
// std::bfloat16_t), and so do some CUDA libraries' kernels in Kineto traces.

#include <string>
#include <string_view>

namespace scopeline {

// The C++ name a mangled symbol ("_Z…") stands for, as binutils' `c++filt --no-verbose
// --no-recurse-limit` writes it; empty where the text is not one, is longer than kMaxMangledName, or
// stands for more than kMaxDemangledName.
std::string demangledName(std::string_view symbol);

// The demangler builds each name on the stack, a few dozen bytes a character: longer names are left
// as they are. Twice the longest kernel symbol seen in real traces (2,004 bytes, a CK convolution).
constexpr std::size_t kMaxMangledName = 4096;
// Six times the longest name those symbols stand for (10,655 characters).
constexpr std::size_t kMaxDemangledName = 64 * 1024;

} // namespace scopeline
