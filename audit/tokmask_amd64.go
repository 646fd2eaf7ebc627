package audit

import "golang.org/x/sys/cpu"

// blockTokens says whether tokenMasks can run here.
var blockTokens = cpu.X86.HasAVX2

// tokenMasks marks, one bit per byte, which of the 64 bytes at p end a
// token (classSep), make it worth indexing (classMark), start an arrow,
// are its first byte (classArrow), and are a colon, an at sign or a slash
// (tokmask_amd64.s). The 66 bytes at p must be readable: an arrow at the
// block's last byte is told by the two after it.
//
//go:noescape
func tokenMasks(p *byte) (sep, mark, arrowAt, e2, colon, at, slash uint64)
