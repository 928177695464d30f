package history

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// Attribute classes: the third dimension of the R-trees' bounding boxes.
//
// A key's class is the shape of its path: every segment that contains a
// digit becomes "*" (Threads/1234/Exec_name and Threads/77/Exec_name are
// both Threads/*/Exec_name). Analyses create keys entity by entity
// (Threads/42, then its Exec_name, PID, PPID, ...), so the keys of one kind
// of attribute are interleaved with every other kind's, and a query for
// one kind over many entities (the process tree: the Exec_name and PPID of
// every thread) would otherwise find a few of its intervals in nearly
// every node. The R-buffer sorts by (class, key) instead of key, nodes and
// child entries carry a class range next to their key range, and queries
// skip sub-trees whose class range holds none of the requested keys'
// classes. The classes are a clustering heuristic only: every class
// assignment gives the same answers.

// maxClasses bounds the number of distinct classes (ids are uint16): the
// shapes that appear after the first 65535 share the last id.
const maxClasses = 1 << 16

// classRef identifies a class by its parent's class (plus one: 0 for
// top-level attributes) in the high 32 bits and its last segment in the
// low 32: the id of the segment's name in the attribute tree, or
// starSegment. Equal names have equal ids, so this is the class of the
// segment's string, hashed as one integer rather than as a string (a
// build of 200 000 threads spent 5% of its analyses there).
type classRef uint64

// starSegment stands for every segment that contains a digit ("*").
const starSegment = math.MaxUint32

// classer assigns classes to the keys of a growing attribute tree, densely
// in order of first appearance. Its memory is 2 bytes per key plus one map
// entry per class.
type classer struct {
	// The class per key, in pages of classPageLen: growing by copying
	// one array was 3% of the analyses' CPU at 200 000 threads.
	pages    [][]uint16
	n        int
	ids      map[classRef]uint16
	overflow bool // some key has the shared last id
	one      bool // every key in class 0 (Options.oneClass)
}

// classPageLen is the number of keys of a full page of classes (64 KiB).
const classPageLen = 1 << 15

func newClasser(one bool) *classer { return &classer{ids: map[classRef]uint16{}, one: one} }

// class returns key k's class, k < len().
func (c *classer) class(k core.Key) uint16 { return c.pages[k/classPageLen][k%classPageLen] }

// len returns the number of keys that have a class.
func (c *classer) len() int { return c.n }

// add gives the next key class id.
func (c *classer) add(id uint16) {
	c.pages = core.AppendPaged(c.pages, c.n, classPageLen, id)
	c.n++
}

// extend assigns classes to the keys of tr (a tree in memory) that have
// none yet.
func (c *classer) extend(tr *core.AttributeTree) {
	n := tr.Len()
	for k := core.Key(c.n); int(k) < n; k++ {
		if c.one {
			c.add(0)
			c.ids[0] = 0
			continue
		}
		seg := tr.NameID(k)
		if hasDigit(tr.NameOfID(seg)) {
			seg = starSegment
		}
		ref := classRef(seg)
		if p := tr.Parent(k); p != core.Root {
			ref |= (classRef(c.class(p)) + 1) << 32
		}
		id, ok := c.ids[ref]
		switch {
		case ok:
		case len(c.ids) < maxClasses-1:
			id = uint16(len(c.ids))
			c.ids[ref] = id
		default:
			id, c.overflow = maxClasses-1, true
		}
		c.add(id)
	}
}

// encode returns the class table: one uint16 per key.
func (c *classer) encode() []byte {
	b := make([]byte, 0, 2*c.n)
	for _, page := range c.pages {
		b = appendClasses(b, page)
	}
	return b
}

// count returns the number of class ids used.
func (c *classer) count() int {
	if c.overflow {
		return len(c.ids) + 1
	}
	return len(c.ids)
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}

// appendClasses appends classes of to the class table b.
func appendClasses(b []byte, of []uint16) []byte {
	for _, c := range of {
		b = le.AppendUint16(b, c)
	}
	return b
}

// classTable is the class table as stored: one little-endian uint16 per
// key. Queries read it in place (no second copy of it in memory).
type classTable []byte

// of returns the class of key k (a key of the tree).
func (c classTable) of(k core.Key) uint16 { return le.Uint16(c[2*int(k):]) }

// len returns the number of keys.
func (c classTable) len() int { return len(c) / 2 }

// decodeClasses checks the class table of a attributes and count classes:
// its size, and ids dense and numbered in order of first appearance.
func decodeClasses(b []byte, attrs, count uint32) (classTable, error) {
	if uint64(len(b)) != 2*uint64(attrs) {
		return nil, fmt.Errorf("%w: class table of %d bytes for %d attributes", ErrCorrupt, len(b), attrs)
	}
	next := uint32(0) // the id a new class must take
	for k := 0; k+1 < len(b); k += 2 {
		switch c := uint32(b[k]) | uint32(b[k+1])<<8; {
		case c == next:
			next++
		case c > next:
			return nil, fmt.Errorf("%w: key %d has class %d before class %d appeared", ErrCorrupt, k/2, c, next)
		}
	}
	if next != count {
		return nil, fmt.Errorf("%w: %d classes in the class table, header says %d", ErrCorrupt, next, count)
	}
	return classTable(b), nil
}

// loadClasses reads the class table (once; queries call it when they
// first need a key's class). It is 2 bytes per attribute: about 2 MB and
// a millisecond at a million attributes.
func (t *Tree) loadClasses() (classTable, error) {
	t.classOnce.Do(func() {
		h := t.hdr
		b := make([]byte, h.classLen())
		if _, err := t.f.ReadAt(b, int64(h.classOff)); err != nil {
			if t.closed.Load() {
				t.classErr = ErrTreeClosed
				return
			}
			t.classErr = fmt.Errorf("%w: class table: %v", ErrTruncated, err)
		} else if got := core.CRC32C(b); got != h.classCRC {
			t.classErr = fmt.Errorf("%w: class table checksum %08x, want %08x", ErrCorrupt, got, h.classCRC)
		} else {
			t.classes, t.classErr = decodeClasses(b, h.attrCount, h.classCount)
		}
		if t.classErr != nil {
			t.classErr = fmt.Errorf("history: %s: %w", t.path, t.classErr)
		}
	})
	return t.classes, t.classErr
}

// classSet is the sorted, de-duplicated list of the classes of a query's
// keys, narrowed to each child's class range like the key list.
type classSet []uint16

// classSetOf returns the classes of the valid keys of ks, of count
// classes in all.
func classSetOf(of classTable, ks keyList, count int) classSet {
	if len(ks) <= 64 {
		cs := make(classSet, 0, len(ks))
		for _, k := range ks {
			if k >= 0 && int(k) < of.len() {
				cs = append(cs, of.of(k))
			}
		}
		slices.Sort(cs)
		return slices.Compact(cs)
	}
	seen := make([]uint64, (count+63)/64)
	for _, k := range ks {
		if k >= 0 && int(k) < of.len() {
			if c := of.of(k); int(c) < count {
				seen[c/64] |= 1 << (c % 64)
			}
		}
	}
	var cs classSet
	for i, word := range seen {
		for ; word != 0; word &= word - 1 {
			cs = append(cs, uint16(i*64+bits.TrailingZeros64(word)))
		}
	}
	return cs
}

// within returns the classes in [lo, hi] (none for the empty range of a
// sub-tree without intervals).
func (cs classSet) within(lo, hi uint16) classSet { return within(cs, lo, hi) }
