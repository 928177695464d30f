package history

import (
	"encoding/binary"
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// nameCacheSize is the number of slots of the direct-mapped cache of
// recent names the attribute encoder deduplicates with: repeated leaf
// names ("Exec_name", "Status") hit it, unique ones (thread ids) cost one
// hash and no map insertion.
const nameCacheSize = 1 << 12

// encodeAttributes serialises the attribute tree: per key, its parent as
// the distance back to it (parents always have smaller keys, so the tree is
// rebuilt by adding keys in order), then its name, either new (written
// out, and numbered) or a reference to an earlier one.
func encodeAttributes(tr *core.AttributeTree) []byte {
	n := tr.Len()
	b := make([]byte, 4, 4+n*4)
	le.PutUint32(b, uint32(n))
	var cache [nameCacheSize]struct {
		name string
		id   uint32
		used bool
	}
	next := uint32(0)
	for k := range n {
		b = binary.AppendUvarint(b, uint64(int64(k)-int64(tr.Parent(core.Key(k)))))
		name := tr.Name(core.Key(k))
		slot := &cache[fnv1a(name)%nameCacheSize]
		if slot.used && slot.name == name {
			b = binary.AppendUvarint(b, uint64(slot.id)<<1)
			continue
		}
		*slot = struct {
			name string
			id   uint32
			used bool
		}{name, next, true}
		next++
		b = binary.AppendUvarint(b, uint64(len(name))<<1|1)
		b = append(b, name...)
	}
	return b
}

// decodeAttributes rebuilds the tree, checking every count, length and
// reference against the bytes it has.
func decodeAttributes(b []byte, want uint32) (*core.AttributeTree, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: attribute tree: %s", ErrCorrupt, fmt.Sprintf(format, a...))
	}
	if len(b) < 4 {
		return nil, bad("%d bytes", len(b))
	}
	n := le.Uint32(b)
	if n != want {
		return nil, bad("%d attributes, header says %d", n, want)
	}
	if uint64(n)*2 > uint64(len(b)) { // each key takes two bytes at least
		return nil, bad("%d keys in %d bytes", n, len(b))
	}
	pos := 4
	var names []string
	tr := core.NewAttributeTree()
	tr.Grow(int(n), countNames(b, n))
	for k := range int(n) {
		var d, x uint64
		if d, pos = uvarint(b, pos); pos < 0 || d < 1 || d > uint64(k)+1 {
			return nil, bad("key %d: bad parent", k)
		}
		if x, pos = uvarint(b, pos); pos < 0 {
			return nil, bad("key %d: bad name", k)
		}
		var name string
		if x&1 == 0 {
			if x>>1 >= uint64(len(names)) {
				return nil, bad("key %d: name %d of %d", k, x>>1, len(names))
			}
			name = names[x>>1]
		} else {
			l := x >> 1
			if l > uint64(len(b)-pos) {
				return nil, bad("key %d: name of %d bytes", k, l)
			}
			name = string(b[pos : pos+int(l)])
			pos += int(l)
			names = append(names, name)
		}
		if got := tr.Add(core.Key(int64(k)-int64(d)), name); got != core.Key(k) {
			return nil, bad("key %d repeats key %d", k, got)
		}
	}
	if pos != len(b) {
		return nil, bad("%d bytes left over", len(b)-pos)
	}
	return tr, nil
}

// countNames returns the number of distinct names in the encoded tree,
// to size the tree's maps once: a quick pass over the bytes that stops at
// the first inconsistency (decodeAttributes reports it).
func countNames(b []byte, n uint32) int {
	pos, names := 4, 0
	for range n {
		var x uint64
		if _, pos = uvarint(b, pos); pos < 0 {
			break
		}
		if x, pos = uvarint(b, pos); pos < 0 {
			break
		}
		if x&1 == 1 {
			if x>>1 > uint64(len(b)-pos) {
				break
			}
			names++
			pos += int(x >> 1)
		}
	}
	return names
}

// fnv1a hashes a name for the encoder's cache; a fixed hash keeps the file
// bytes reproducible.
func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}
