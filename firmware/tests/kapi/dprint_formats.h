/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DPRINT lines of dprint.c, shared with the host test, which formats
 * them with its own snprintf and expects the same text in the ring.
 * PRINT_LINE is defined by the includer.
 */
PRINT_LINE("int %d %i %u %x %X %o|\n", -42, 7, 4000000000u, 0xbeefu, 0xBEEFu,
	   8u)
PRINT_LINE("w [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%*d] [%-*d]\n", 42, 42,
	   -42, 42, 42, 7, 6, 9, 4, 3)
PRINT_LINE("x [%#x] [%#o] [%08x] [%#010x] [%.0d] [%hhu] [%hd]\n", 255u, 8u,
	   0xabcu, 0x1fu, 0, 300u, -3)
PRINT_LINE("s [%s] [%8s] [%-8s] [%.2s] %c%c [%3c] %%\n", "abc", "abc", "abc",
	   "abc", 'o', 'k', 'z')
PRINT_LINE("p %p\n", (void *)0x1234)
PRINT_LINE("l %ld %lu %lld %llx %llu %llX\n", -5L, 5UL, -1234567890123LL,
	   0x123456789abcdefULL, 18446744073709551615ULL, 0xFEDCBA9876ULL)
PRINT_LINE("f %f %.2f %e %.3e %E\n", 3.14159, -2.5, 12345.678, 0.000123,
	   6.02214076e23)
PRINT_LINE("g %g %g %g %G %g %g %.3g %#g\n", 100000.0, 1e-5, 0.1, 1e20,
	   123456789.0, 0.0001, 2.0 / 3.0, 1.5)
PRINT_LINE("f [%8.3f] [%-8.1f] [%08.2f] [%+.1f] %f %.0f %.0f %.3f\n",
	   3.14159, 2.5, -1.5, 1.25, 0.0, 0.5, 1.5, 0.125)
PRINT_LINE("big %e %g %.1f\n", 1.7976931348623157e308,
	   4.9406564584124654e-324, 123456789012.5)
PRINT_LINE("small %e %g %f\n", 1.17549435e-38, 2.2250738585072014e-308,
	   1e-7)
PRINT_LINE("special %f %e %g %F %5.1f %-6f|\n", __builtin_inf(),
	   -__builtin_inf(), __builtin_nan(""), __builtin_inf(), -0.0,
	   __builtin_inf())
PRINT_LINE("float arg %f %g\n", (double)1.5f, (double)3.0e-3f)
