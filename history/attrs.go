package history

import (
	"encoding/binary"
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// encodeAttributes serialises the attribute tree: the distinct names
// once, then per key its parent (as the distance back to it) and the index
// of its name. Parents always have smaller keys, so the tree is rebuilt by
// adding keys in order.
func encodeAttributes(tr *core.AttributeTree) []byte {
	n := tr.Len()
	ids := make(map[string]uint32, n/2)
	var names []string
	nameID := make([]uint32, n)
	for k := range n {
		name := tr.Name(core.Key(k))
		id, ok := ids[name]
		if !ok {
			id = uint32(len(names))
			ids[name] = id
			names = append(names, name)
		}
		nameID[k] = id
	}
	b := make([]byte, 8, 8+n*3)
	le.PutUint32(b[0:], uint32(n))
	le.PutUint32(b[4:], uint32(len(names)))
	for _, s := range names {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for k := range n {
		b = binary.AppendUvarint(b, uint64(int64(k)-int64(tr.Parent(core.Key(k)))))
		b = binary.AppendUvarint(b, uint64(nameID[k]))
	}
	return b
}

// decodeAttributes rebuilds the tree, checking every count, length and
// reference against the bytes it has.
func decodeAttributes(b []byte, want uint32) (*core.AttributeTree, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: attribute tree: %s", ErrCorrupt, fmt.Sprintf(format, a...))
	}
	if len(b) < 8 {
		return nil, bad("%d bytes", len(b))
	}
	n, nn := le.Uint32(b[0:]), le.Uint32(b[4:])
	if n != want {
		return nil, bad("%d attributes, header says %d", n, want)
	}
	// Each name takes at least one byte and each key two: bound the
	// allocations by the bytes present.
	if uint64(nn) > uint64(len(b)) || uint64(n)*2 > uint64(len(b)) {
		return nil, bad("%d names and %d keys in %d bytes", nn, n, len(b))
	}
	pos := 8
	uv := func() (uint64, bool) {
		v, k := binary.Uvarint(b[pos:])
		if k <= 0 {
			return 0, false
		}
		pos += k
		return v, true
	}
	names := make([]string, nn)
	for i := range names {
		l, ok := uv()
		if !ok || l > uint64(len(b)-pos) {
			return nil, bad("name %d: bad length", i)
		}
		names[i] = string(b[pos : pos+int(l)])
		pos += int(l)
	}
	tr := core.NewAttributeTree()
	for k := range int(n) {
		d, ok1 := uv()
		id, ok2 := uv()
		if !ok1 || !ok2 || d < 1 || d > uint64(k)+1 || id >= uint64(nn) {
			return nil, bad("key %d: bad parent or name", k)
		}
		if got := tr.Add(core.Key(int64(k)-int64(d)), names[id]); got != core.Key(k) {
			return nil, bad("key %d repeats key %d", k, got)
		}
	}
	if pos != len(b) {
		return nil, bad("%d bytes left over", len(b)-pos)
	}
	return tr, nil
}
