package tsdl

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Metadata packet layout (CTF 1.8.3 section 7.1): a 37-byte header
//
//	offset size field
//	0      4    magic 0x75D11D57 (its byte order is the packet's)
//	4      16   uuid
//	20     4    checksum (0 if unused)
//	24     4    content_size, in bits, header included
//	28     4    packet_size, in bits, header included
//	32     1    compression_scheme (must be 0)
//	33     1    encryption_scheme (must be 0)
//	34     1    checksum_scheme (must be 0)
//	35     1    major (1)
//	36     1    minor (8)
//
// followed by TSDL text up to content_size, then padding up to packet_size.
const (
	metadataMagic      = 0x75D11D57
	metadataHeaderSize = 37
)

// IsPacketized reports whether a metadata file starts with the metadata
// packet magic number, in either byte order.
func IsPacketized(data []byte) bool {
	if len(data) < 4 {
		return false
	}
	return binary.LittleEndian.Uint32(data) == metadataMagic || binary.BigEndian.Uint32(data) == metadataMagic
}

// Decode returns the TSDL text of a metadata file: the file itself when it
// is plain text, else the concatenated contents of its packets, which are
// checked (sizes, schemes, version, uuid).
func Decode(data []byte) ([]byte, error) {
	if !IsPacketized(data) {
		if err := checkSignature(data); err != nil {
			return nil, err
		}
		return data, nil
	}
	var order binary.ByteOrder = binary.LittleEndian
	if binary.BigEndian.Uint32(data) == metadataMagic {
		order = binary.BigEndian
	}
	var text bytes.Buffer
	text.Grow(len(data)) // the text is what remains without the headers
	var first [16]byte
	for off, n := 0, 0; off < len(data); n++ {
		rest := data[off:]
		if len(rest) < metadataHeaderSize {
			return nil, packetErr(n, off, "truncated header (%d bytes left)", len(rest))
		}
		if order.Uint32(rest) != metadataMagic {
			return nil, packetErr(n, off, "bad magic 0x%08x", order.Uint32(rest))
		}
		var id [16]byte
		copy(id[:], rest[4:20])
		if n == 0 {
			first = id
		} else if id != first {
			return nil, packetErr(n, off, "uuid differs from the first packet's")
		}
		content, size := uint64(order.Uint32(rest[24:])), uint64(order.Uint32(rest[28:]))
		switch {
		case content%8 != 0 || size%8 != 0:
			return nil, packetErr(n, off, "content size %d or packet size %d is not a whole number of bytes", content, size)
		case content < metadataHeaderSize*8:
			return nil, packetErr(n, off, "content size %d bits is smaller than the header", content)
		case size < content:
			return nil, packetErr(n, off, "packet size %d bits is smaller than its content size %d", size, content)
		case size/8 > uint64(len(rest)):
			return nil, packetErr(n, off, "packet size %d bytes goes past the end of the file (%d bytes left)", size/8, len(rest))
		case rest[32] != 0 || rest[33] != 0 || rest[34] != 0:
			return nil, packetErr(n, off, "compressed, encrypted or checksummed metadata is not supported")
		case (rest[35] != 1 || rest[36] != 8) && (rest[35] != 2 || rest[36] != 0): // 2.0: CTF2-PMETA-1.0
			return nil, packetErr(n, off, "unsupported CTF version %d.%d", rest[35], rest[36])
		}
		text.Write(rest[metadataHeaderSize : content/8])
		off += int(size / 8)
	}
	return text.Bytes(), nil
}

func packetErr(n, off int, format string, a ...any) error {
	return &Error{Reason: fmt.Sprintf("packet %d at offset %d: ", n, off) + fmt.Sprintf(format, a...)}
}

// checkSignature checks that plain-text metadata starts with
// "/* CTF 1.8", as the specification requires (and babeltrace2 checks).
func checkSignature(text []byte) error {
	const sig = "/* CTF "
	if !bytes.HasPrefix(text, []byte(sig)) {
		return &Error{Line: 1, Reason: `plain-text metadata must start with "/* CTF 1.8"`}
	}
	rest := text[len(sig):]
	var major, minor int
	i := 0
	for ; i < len(rest) && i < 10 && rest[i] >= '0' && rest[i] <= '9'; i++ {
		major = major*10 + int(rest[i]-'0')
	}
	if i == 0 || i >= len(rest) || rest[i] != '.' {
		return &Error{Line: 1, Reason: `plain-text metadata must start with "/* CTF 1.8"`}
	}
	j := i + 1
	for ; j < len(rest) && j < i+11 && rest[j] >= '0' && rest[j] <= '9'; j++ {
		minor = minor*10 + int(rest[j]-'0')
	}
	if j == i+1 || major != 1 || minor != 8 {
		return &Error{Line: 1, Reason: fmt.Sprintf("unsupported CTF version %d.%d in the metadata signature (want 1.8)", major, minor)}
	}
	return nil
}
