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

// OUTSIDE marks in dst the bytes of src whose nibbles' classes share no
// bit (Y5 the nibble mask, Y8 and Y9 the tables, Y10 zero): the bytes
// outside the set the tables describe.
#define OUTSIDE(src, dst) \
	VPAND Y5, src, Y11; \
	VPSRLW $4, src, dst; \
	VPAND Y5, dst, dst; \
	VPSHUFB Y11, Y8, Y11; \
	VPSHUFB dst, Y9, dst; \
	VPAND Y11, dst, dst; \
	VPCMPEQB Y10, dst, dst

// INSET64 marks in AX the bytes of the block (Y0, Y1) in the set that the
// nibble tables low and high describe.
#define INSET64(low, high) \
	VMOVDQU low<>(SB), Y8; \
	VMOVDQU high<>(SB), Y9; \
	OUTSIDE(Y0, Y6); \
	OUTSIDE(Y1, Y7); \
	MASK64(Y6, Y7); \
	NOTQ AX

// SPLAT is a 32-byte constant of one byte repeated.
#define SPLAT(name, q) \
	DATA name<>+0(SB)/8, q; \
	DATA name<>+8(SB)/8, q; \
	DATA name<>+16(SB)/8, q; \
	DATA name<>+24(SB)/8, q; \
	GLOBL name<>(SB), RODATA|NOPTR, $32

// TABLE is a 16-byte nibble table, repeated for VPSHUFB's second lane.
#define TABLE(name, lo, hi) \
	DATA name<>+0(SB)/8, lo; \
	DATA name<>+8(SB)/8, hi; \
	DATA name<>+16(SB)/8, lo; \
	DATA name<>+24(SB)/8, hi; \
	GLOBL name<>(SB), RODATA|NOPTR, $32

// func tokenMasks(p *byte) (sep, mark, arrowAt, e2, colon, at, slash uint64)
//
// One bit for each of the 64 bytes at p, bit k for p[k]: does it end a
// token, is it a mark, does an arrow (E2 86 92) start there, is it 0xE2,
// a colon, an at sign, a slash. Reads 66 bytes. Needs AVX2.
TEXT ·tokenMasks(SB), NOSPLIT, $0-64
	MOVQ p+0(FP), SI
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU nibbles<>(SB), Y5
	VPXOR Y10, Y10, Y10

	INSET64(sepLow, sepHigh)
	MOVQ AX, sep+8(FP)
	INSET64(markLow, markHigh)
	MOVQ AX, mark+16(FP)

	// an arrow starts at k when p[k], p[k+1] and p[k+2] are its bytes
	VMOVDQU arrow0<>(SB), Y4
	VPCMPEQB Y4, Y0, Y12
	VPCMPEQB Y4, Y1, Y13
	MASK64(Y12, Y13)
	MOVQ AX, e2+32(FP)
	VMOVDQU 1(SI), Y2
	VMOVDQU 33(SI), Y3
	VMOVDQU arrow1<>(SB), Y4
	VPCMPEQB Y4, Y2, Y2
	VPCMPEQB Y4, Y3, Y3
	VPAND Y2, Y12, Y12
	VPAND Y3, Y13, Y13
	VMOVDQU 2(SI), Y2
	VMOVDQU 34(SI), Y3
	VMOVDQU arrow2<>(SB), Y4
	VPCMPEQB Y4, Y2, Y2
	VPCMPEQB Y4, Y3, Y3
	VPAND Y2, Y12, Y12
	VPAND Y3, Y13, Y13
	MASK64(Y12, Y13)
	MOVQ AX, arrowAt+24(FP)

	VMOVDQU colons<>(SB), Y4
	EQUAL64(Y4)
	MOVQ AX, colon+40(FP)
	VMOVDQU ats<>(SB), Y4
	EQUAL64(Y4)
	MOVQ AX, at+48(FP)
	VMOVDQU slashes<>(SB), Y4
	EQUAL64(Y4)
	MOVQ AX, slash+56(FP)

	VZEROUPPER
	RET

SPLAT(nibbles, $0x0f0f0f0f0f0f0f0f)
SPLAT(arrow0, $0xe2e2e2e2e2e2e2e2)
SPLAT(arrow1, $0x8686868686868686)
SPLAT(arrow2, $0x9292929292929292)
SPLAT(colons, $0x3a3a3a3a3a3a3a3a)
SPLAT(ats, $0x4040404040404040)
SPLAT(slashes, $0x2f2f2f2f2f2f2f2f)

// A byte is in a set when the class of its low nibble and that of its
// high nibble share a bit. The separators " \t\n\r,;|()[]{}<>"'`\ and the
// marks /:@.-_#0-9 each take one class per group of high nibbles with the
// same low nibbles; Low[n] holds the classes of the bytes whose low
// nibble is n, High[n] those whose high nibble is n. Bytes 0..7 of each
// quadword are entries 0..7 (little-endian). TestTokenMasks holds them to
// byteClass.
TABLE(sepLow, $0x0200000000020012, $0x0004090e0c010302)
TABLE(sepHigh, $0x0810080004020001, $0x0000000000000000)
TABLE(markLow, $0x0202020203020206, $0x0901010000020202)
TABLE(markHigh, $0x0000080402010000, $0x0000000000000000)
