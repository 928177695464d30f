package chrome

import (
	"encoding/binary"
	"errors"
)

// A record is one event as the first pass stores it in a sorted run:
//
//	ts      int64, little endian (nanoseconds; metadataTimeRaw for M events)
//	seq     uvarint (rank of the event in the file: the tie-break)
//	bodyLen uvarint
//	body:
//	  ph      1 byte
//	  class   uvarint
//	  thread  uvarint (0: no pid/tid)
//	  flags   1 byte (bit 0: dur present, bit 1: name in oname, bit 2: id was a number,
//	          bit 3: "bp": "e")
//	  dur     varint nanoseconds, if present
//	  cat, id, args, extra, oname: each uvarint length + bytes
//
// The run files are private temporary files written and read by the same
// process; decoding still checks every length so a bad checkpoint offset
// gives an error, not a panic.

var errBadRecord = errors.New("corrupt sort record (temporary file damaged or bad checkpoint)")

const (
	flagDur   = 1 << 0
	flagOName = 1 << 1
	flagIDNum = 1 << 2
	flagBPE   = 1 << 3
)

// record is a decoded body; its slices alias the body bytes.
type record struct {
	ph                          byte
	class                       int32
	thread                      int32
	hasDur, idNum               bool
	bindEnclosing               bool // "bp": "e"
	dur                         int64
	cat, id, args, extra, oname []byte
	spanOff, spanLen            int64 // the event's JSON object in the input
}

// appendBody encodes ev (already resolved to class and thread) onto dst.
func appendBody(dst []byte, ev *rawEvent, class, thread int32, overflow bool) []byte {
	dst = append(dst, ev.ph)
	dst = binary.AppendUvarint(dst, uint64(class))
	dst = binary.AppendUvarint(dst, uint64(thread))
	var flags byte
	if ev.hasDur {
		flags |= flagDur
	}
	if overflow {
		flags |= flagOName
	}
	if ev.idNum {
		flags |= flagIDNum
	}
	if ev.bindEnclosing {
		flags |= flagBPE
	}
	dst = append(dst, flags)
	if ev.hasDur {
		dst = binary.AppendVarint(dst, ev.dur)
	}
	dst = appendBytes(dst, ev.cat)
	dst = appendBytes(dst, ev.id)
	dst = appendBytes(dst, ev.args)
	dst = appendBytes(dst, ev.extra)
	if overflow {
		dst = appendBytes(dst, ev.name)
	}
	dst = binary.AppendUvarint(dst, uint64(ev.offset))
	return binary.AppendUvarint(dst, uint64(ev.length))
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// decodeBody fills r from body.
func decodeBody(body []byte, r *record) error {
	if len(body) < 1 {
		return errBadRecord
	}
	r.ph = body[0]
	b := body[1:]
	class, n := binary.Uvarint(b)
	if n <= 0 || class > maxClasses {
		return errBadRecord
	}
	b = b[n:]
	thread, n := binary.Uvarint(b)
	if n <= 0 || thread > maxThreads {
		return errBadRecord
	}
	b = b[n:]
	if len(b) < 1 {
		return errBadRecord
	}
	flags := b[0]
	b = b[1:]
	r.class, r.thread, r.hasDur, r.dur = int32(class), int32(thread), flags&flagDur != 0, 0
	r.idNum = flags&flagIDNum != 0
	r.bindEnclosing = flags&flagBPE != 0
	if r.hasDur {
		d, n := binary.Varint(b)
		if n <= 0 {
			return errBadRecord
		}
		r.dur, b = d, b[n:]
	}
	var ok bool
	if r.cat, b, ok = takeBytes(b); !ok {
		return errBadRecord
	}
	if r.id, b, ok = takeBytes(b); !ok {
		return errBadRecord
	}
	if r.args, b, ok = takeBytes(b); !ok {
		return errBadRecord
	}
	if r.extra, b, ok = takeBytes(b); !ok {
		return errBadRecord
	}
	r.oname = nil
	if flags&flagOName != 0 {
		if r.oname, b, ok = takeBytes(b); !ok {
			return errBadRecord
		}
	}
	off, n := binary.Uvarint(b)
	if n <= 0 || off > 1<<62 {
		return errBadRecord
	}
	l, m := binary.Uvarint(b[n:])
	if m <= 0 || l > maxEventBytes {
		return errBadRecord
	}
	r.spanOff, r.spanLen = int64(off), int64(l)
	return nil
}

func takeBytes(b []byte) ([]byte, []byte, bool) {
	l, n := binary.Uvarint(b)
	if n <= 0 || l > uint64(len(b)-n) {
		return nil, nil, false
	}
	end := n + int(l)
	return b[n:end], b[end:], true
}
