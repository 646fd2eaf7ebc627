#include "textflag.h"

// MASK64 joins the byte masks of the two halves of a block (VPMOVMSKB
// takes each byte's high bit) into one 64-bit mask in AX.
#define MASK64(lo, hi) \
	VPMOVMSKB lo, AX; \
	VPMOVMSKB hi, BX; \
	SHLQ $32, BX; \
	ORQ BX, AX

// EQUAL64 marks in AX the bytes of the block (Y0, Y1) equal to those of c.
#define EQUAL64(c) \
	VPCMPEQB c, Y0, Y6; \
	VPCMPEQB c, Y1, Y7; \
	MASK64(Y6, Y7)

// UNESCAPABLE marks in dst the bytes of src whose nibbles' classes share
// no bit (Y5 the nibble mask, Y8 and Y9 the tables, Y10 zero).
#define UNESCAPABLE(src, dst) \
	VPAND Y5, src, Y11; \
	VPSRLW $4, src, dst; \
	VPAND Y5, dst, dst; \
	VPSHUFB Y11, Y8, Y11; \
	VPSHUFB dst, Y9, dst; \
	VPAND Y11, dst, dst; \
	VPCMPEQB Y10, dst, dst

// SPLAT is a 32-byte constant of one byte repeated.
#define SPLAT(name, q) \
	DATA name<>+0(SB)/8, q; \
	DATA name<>+8(SB)/8, q; \
	DATA name<>+16(SB)/8, q; \
	DATA name<>+24(SB)/8, q; \
	GLOBL name<>(SB), RODATA|NOPTR, $32

// func stringMasks(p *byte) (backslash, quote, control, high, plain uint64)
//
// One bit for each of the 64 bytes at p, bit k for p[k]: is it a
// backslash, a double quote, a control byte (below 0x20), a byte with the
// high bit set, a byte no backslash may escape but u. Needs AVX2.
TEXT ·stringMasks(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), SI
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1

	VMOVDQU backslashes<>(SB), Y4
	EQUAL64(Y4)
	MOVQ AX, backslash+8(FP)
	VMOVDQU quotes<>(SB), Y4
	EQUAL64(Y4)
	MOVQ AX, quote+16(FP)

	// b <= 0x1f exactly when min(b, 0x1f) == b
	VMOVDQU controls<>(SB), Y4
	VPMINUB Y4, Y0, Y6
	VPMINUB Y4, Y1, Y7
	VPCMPEQB Y6, Y0, Y6
	VPCMPEQB Y7, Y1, Y7
	MASK64(Y6, Y7)
	MOVQ AX, control+24(FP)

	MASK64(Y0, Y1)
	MOVQ AX, high+32(FP)

	// A byte may follow a backslash (one of "\/bfnrt) when the class
	// of its low nibble and that of its high nibble share a bit:
	// escapeLow and escapeHigh give each nibble its classes. VPSHUFB
	// looks up 32 nibbles at once, each lane in its own copy of a table.
	VMOVDQU nibbles<>(SB), Y5
	VMOVDQU escapeLow<>(SB), Y8
	VMOVDQU escapeHigh<>(SB), Y9
	VPXOR Y10, Y10, Y10
	UNESCAPABLE(Y0, Y6)
	UNESCAPABLE(Y1, Y7)
	MASK64(Y6, Y7)
	MOVQ AX, plain+40(FP)

	VZEROUPPER
	RET

SPLAT(backslashes, $0x5c5c5c5c5c5c5c5c)
SPLAT(quotes, $0x2222222222222222)
SPLAT(controls, $0x1f1f1f1f1f1f1f1f)
SPLAT(nibbles, $0x0f0f0f0f0f0f0f0f)

// Classes: 1 for 0x22 " and 0x2f /, 2 for 0x5c \, 4 for 0x62 b, 0x66 f and
// 0x6e n, 8 for 0x72 r and 0x74 t. escapeLow[n] holds the classes of the
// bytes whose low nibble is n, escapeHigh[n] those whose high nibble is n.
// Bytes 0..7 of each quadword are table entries 0..7 (little-endian); each
// table is repeated for the second lane.
DATA escapeLow<>+0(SB)/8, $0x00040008000d0000
DATA escapeLow<>+8(SB)/8, $0x0104000200000000
DATA escapeLow<>+16(SB)/8, $0x00040008000d0000
DATA escapeLow<>+24(SB)/8, $0x0104000200000000
GLOBL escapeLow<>(SB), RODATA|NOPTR, $32

DATA escapeHigh<>+0(SB)/8, $0x0804020000010000
DATA escapeHigh<>+8(SB)/8, $0x0000000000000000
DATA escapeHigh<>+16(SB)/8, $0x0804020000010000
DATA escapeHigh<>+24(SB)/8, $0x0000000000000000
GLOBL escapeHigh<>(SB), RODATA|NOPTR, $32
