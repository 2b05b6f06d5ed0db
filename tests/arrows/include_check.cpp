// SPDX-License-Identifier: GPL-3.0-or-later
// One include, compiled with the include root of one room (tests/arrows/CMakeLists.txt).
#include CHECKED_HEADER
