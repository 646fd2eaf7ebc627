#include "textflag.h"

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
	VPCMPEQB Y4, Y0, Y6
	VPCMPEQB Y4, Y1, Y7
	VPMOVMSKB Y6, AX
	VPMOVMSKB Y7, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, backslash+8(FP)

	VMOVDQU quotes<>(SB), Y4
	VPCMPEQB Y4, Y0, Y6
	VPCMPEQB Y4, Y1, Y7
	VPMOVMSKB Y6, AX
	VPMOVMSKB Y7, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, quote+16(FP)

	// b <= 0x1f exactly when min(b, 0x1f) == b
	VMOVDQU controls<>(SB), Y4
	VPMINUB Y4, Y0, Y6
	VPMINUB Y4, Y1, Y7
	VPCMPEQB Y6, Y0, Y6
	VPCMPEQB Y7, Y1, Y7
	VPMOVMSKB Y6, AX
	VPMOVMSKB Y7, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, control+24(FP)

	VPMOVMSKB Y0, AX
	VPMOVMSKB Y1, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, high+32(FP)

	// A byte may follow a backslash (one of "\/bfnrt) when the class
	// of its low nibble and that of its high nibble share a bit:
	// escapeLow and escapeHigh give each nibble its classes. VPSHUFB
	// looks up 32 nibbles at once, each lane in its own copy of a table.
	VMOVDQU nibbles<>(SB), Y5
	VMOVDQU escapeLow<>(SB), Y8
	VMOVDQU escapeHigh<>(SB), Y9
	VPXOR Y10, Y10, Y10

	VPAND Y5, Y0, Y6
	VPSRLW $4, Y0, Y7
	VPAND Y5, Y7, Y7
	VPSHUFB Y6, Y8, Y6
	VPSHUFB Y7, Y9, Y7
	VPAND Y6, Y7, Y6
	VPCMPEQB Y10, Y6, Y6
	VPMOVMSKB Y6, AX

	VPAND Y5, Y1, Y6
	VPSRLW $4, Y1, Y7
	VPAND Y5, Y7, Y7
	VPSHUFB Y6, Y8, Y6
	VPSHUFB Y7, Y9, Y7
	VPAND Y6, Y7, Y6
	VPCMPEQB Y10, Y6, Y6
	VPMOVMSKB Y6, BX

	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, plain+40(FP)

	VZEROUPPER
	RET

DATA backslashes<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+24(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL backslashes<>(SB), RODATA|NOPTR, $32

DATA quotes<>+0(SB)/8, $0x2222222222222222
DATA quotes<>+8(SB)/8, $0x2222222222222222
DATA quotes<>+16(SB)/8, $0x2222222222222222
DATA quotes<>+24(SB)/8, $0x2222222222222222
GLOBL quotes<>(SB), RODATA|NOPTR, $32

DATA controls<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+16(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+24(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL controls<>(SB), RODATA|NOPTR, $32

DATA nibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles<>(SB), RODATA|NOPTR, $32

// Classes: 1 for 0x22 " and 0x2f /, 2 for 0x5c \, 4 for 0x62 b, 0x66 f and
// 0x6e n, 8 for 0x72 r and 0x74 t. escapeLow[n] holds the classes of the
// bytes whose low nibble is n, escapeHigh[n] those whose high nibble is n.
// Bytes 0..7 of each quadword are table entries 0..7 (little-endian).
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
