package core

import (
	"hash"
	"hash/crc32"
)

// Every checksum tracetui writes in its own files (index nodes and
// sections, the process-tree rows, the event index, the Chrome order, the
// CTF reader state) is a CRC32C: Castagnoli's polynomial, which the CPU
// computes in hardware.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC32C returns the CRC32C of b.
func CRC32C(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// UpdateCRC32C returns crc updated with b.
func UpdateCRC32C(crc uint32, b []byte) uint32 { return crc32.Update(crc, castagnoli, b) }

// NewCRC32C returns a CRC32C hash.
func NewCRC32C() hash.Hash32 { return crc32.New(castagnoli) }
