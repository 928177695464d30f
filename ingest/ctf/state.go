package ctf

import (
	"encoding/binary"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// The reader state an index keeps for a CTF trace: the parsed metadata of
// each of its trace directories, in tsdl's binary form, so that the
// browser's event-table readers skip reading and parsing the text (18 to
// 27 ms of the first frame on an LTTng kernel trace). Layout: "CTFM", a
// version byte, the CRC32C (Castagnoli, little endian) of what follows
// it, the directory count, then per directory its path relative to the
// opened one and its model, each as an unsigned-varint length then bytes.
// The CRC makes damage fall back to the files: a flipped byte of a model
// may still decode, to other types.
const (
	stateMagic   = "CTFM"
	stateVersion = 1
)

// IndexState returns the parsed metadata of r's traces for an index to
// keep, handed back in [Options.Metadata]; nil when one has no binary
// form (types nested too deep: those traces keep reading their text).
func (r *Reader) IndexState() []byte {
	b := append([]byte(stateMagic), stateVersion, 0, 0, 0, 0)
	b = binary.AppendUvarint(b, uint64(len(r.traces)))
	for _, tr := range r.traces {
		b = binary.AppendUvarint(b, uint64(len(tr.rel)))
		b = append(b, tr.rel...)
		model, err := tr.plan.meta.AppendBinary(nil)
		if err != nil {
			return nil
		}
		b = binary.AppendUvarint(b, uint64(len(model)))
		b = append(b, model...)
	}
	binary.LittleEndian.PutUint32(b[stateHead-4:], core.CRC32C(b[stateHead:]))
	return b
}

// stateHead is the size of the state's head: magic, version, CRC.
const stateHead = len(stateMagic) + 1 + 4

// statedMetadata returns the models that state holds, by relative path;
// nil when state is not one that IndexState wrote (the readers then read
// the metadata files).
func statedMetadata(state []byte) map[string]*tsdl.Trace {
	if len(state) < stateHead || string(state[:len(stateMagic)]) != stateMagic || state[len(stateMagic)] != stateVersion ||
		binary.LittleEndian.Uint32(state[stateHead-4:]) != core.CRC32C(state[stateHead:]) {
		return nil
	}
	b := state[stateHead:]
	next := func() ([]byte, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, false
		}
		v := b[k : k+int(n)]
		b = b[k+int(n):]
		return v, true
	}
	count, k := binary.Uvarint(b)
	if k <= 0 || count > uint64(len(b)) {
		return nil
	}
	b = b[k:]
	out := make(map[string]*tsdl.Trace, count)
	for range count {
		rel, ok := next()
		if !ok {
			return nil
		}
		model, ok := next()
		if !ok {
			return nil
		}
		meta, err := tsdl.DecodeBinary(model)
		if err != nil {
			return nil
		}
		out[string(rel)] = meta
	}
	if len(b) != 0 {
		return nil
	}
	return out
}
