package core

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Root is the parent of top-level attributes.
const Root Key = -1

// AttributeTree maps hierarchical attribute paths ("Threads/42/Exec_name")
// to dense [Key]s. Every prefix of a path has its own key, and a parent is
// always created before its children, so Parent(k) < k.
//
// It is stored compactly (a few int32 per attribute plus one interned name)
// because kernel traces can have millions of threads. It is not safe for
// concurrent mutation; once built, any number of goroutines may read it.
type AttributeTree struct {
	parent      []Key
	nameID      []uint32
	firstChild  []Key
	lastChild   []Key
	nextSibling []Key

	names   []string          // interned names, by id
	nameIDs map[string]uint32 // name -> id
	child   map[childRef]Key  // (parent, name id) -> key
}

type childRef struct {
	parent Key
	name   uint32
}

// NewAttributeTree returns an empty tree.
func NewAttributeTree() *AttributeTree {
	return &AttributeTree{nameIDs: map[string]uint32{}, child: map[childRef]Key{}}
}

// Grow makes room for n more attributes, so that adding them does not
// grow the arrays and maps step by step (loading a million attributes
// from an index spends most of its time there otherwise). names is the
// number of distinct names expected among them, if known (0: unknown).
func (t *AttributeTree) Grow(n, names int) {
	if n <= 0 {
		return
	}
	t.parent = slices.Grow(t.parent, n)
	t.nameID = slices.Grow(t.nameID, n)
	t.firstChild = slices.Grow(t.firstChild, n)
	t.lastChild = slices.Grow(t.lastChild, n)
	t.nextSibling = slices.Grow(t.nextSibling, n)
	// Maps cannot grow in place: rebuild them with the final size.
	child := make(map[childRef]Key, len(t.child)+n)
	for r, k := range t.child {
		child[r] = k
	}
	t.child = child
	if names > 0 {
		t.names = slices.Grow(t.names, names)
		ids := make(map[string]uint32, len(t.nameIDs)+names)
		for name, id := range t.nameIDs {
			ids[name] = id
		}
		t.nameIDs = ids
	}
}

// Len returns the number of attributes; keys are 0 .. Len()-1.
func (t *AttributeTree) Len() int { return len(t.parent) }

// Valid reports whether k is a key of the tree.
func (t *AttributeTree) Valid(k Key) bool { return k >= 0 && int(k) < len(t.parent) }

// Add returns the key of the child called name under parent (use [Root]
// for a top-level attribute), creating it if needed. It panics if parent is
// neither Root nor a key of the tree: that is a programming error.
func (t *AttributeTree) Add(parent Key, name string) Key {
	if parent != Root && !t.Valid(parent) {
		panic("core: AttributeTree.Add: invalid parent key")
	}
	id, ok := t.nameIDs[name]
	if !ok {
		id = uint32(len(t.names))
		t.names = append(t.names, name)
		t.nameIDs[name] = id
	} else if k, ok := t.child[childRef{parent, id}]; ok {
		return k
	}
	k := Key(len(t.parent))
	t.parent = append(t.parent, parent)
	t.nameID = append(t.nameID, id)
	t.firstChild = append(t.firstChild, -1)
	t.lastChild = append(t.lastChild, -1)
	t.nextSibling = append(t.nextSibling, -1)
	t.child[childRef{parent, id}] = k
	if parent != Root {
		if last := t.lastChild[parent]; last >= 0 {
			t.nextSibling[last] = k
		} else {
			t.firstChild[parent] = k
		}
		t.lastChild[parent] = k
	}
	return k
}

// AddPath returns the key of the attribute at the given path segments,
// creating it and every missing prefix.
func (t *AttributeTree) AddPath(segments ...string) Key {
	k := Root
	for _, s := range segments {
		k = t.Add(k, s)
	}
	return k
}

// Child returns the key of the child called name under parent (or Root).
func (t *AttributeTree) Child(parent Key, name string) (Key, bool) {
	id, ok := t.nameIDs[name]
	if !ok {
		return 0, false
	}
	k, ok := t.child[childRef{parent, id}]
	return k, ok
}

// Lookup returns the key of a '/'-separated path such as
// "Threads/42/Exec_name".
func (t *AttributeTree) Lookup(p string) (Key, bool) {
	k := Root
	for _, s := range strings.Split(p, "/") {
		var ok bool
		if k, ok = t.Child(k, s); !ok {
			return 0, false
		}
	}
	return k, true
}

// Parent returns the parent of k, or Root for a top-level attribute.
func (t *AttributeTree) Parent(k Key) Key { return t.parent[k] }

// Name returns the last path segment of k.
func (t *AttributeTree) Name(k Key) string { return t.names[t.nameID[k]] }

// Path returns the '/'-separated path of k.
func (t *AttributeTree) Path(k Key) string {
	var segs []string
	for ; k != Root; k = t.parent[k] {
		segs = append(segs, t.Name(k))
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteString(segs[i])
		if i > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// Children returns the children of k (or the top-level attributes for
// Root) in creation order.
func (t *AttributeTree) Children(k Key) []Key {
	var out []Key
	t.EachChild(k, func(c Key) { out = append(out, c) })
	return out
}

// EachChild calls fn for every child of k (or top-level attribute for
// Root), in creation order, without allocating.
func (t *AttributeTree) EachChild(k Key, fn func(Key)) {
	if k == Root {
		for c := range t.parent {
			if t.parent[c] == Root {
				fn(Key(c))
			}
		}
		return
	}
	for c := t.firstChild[k]; c >= 0; c = t.nextSibling[c] {
		fn(c)
	}
}

// CheckGlob returns an error naming the problem when pattern is not a
// well-formed attribute glob (an unclosed '[', a trailing '\\'): Glob
// would silently match nothing.
func CheckGlob(pattern string) error {
	for _, seg := range strings.Split(pattern, "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("attribute glob %q: segment %q is malformed (a '[' needs its ']', a '\\' a character after it): %w", pattern, seg, err)
		}
	}
	return nil
}

// Glob returns, in key order, the keys whose paths match pattern, a
// '/'-separated list of segments each matched with [path.Match] rules
// ("Threads/*/Exec_name", "CPUs/[0-3]"). A segment without
// metacharacters is looked up directly, so a glob costs only the children of
// the segments that have them. A malformed pattern matches nothing.
func (t *AttributeTree) Glob(pattern string) []Key {
	segs := strings.Split(pattern, "/")
	level := []Key{Root}
	for _, seg := range segs {
		var next []Key
		literal := !strings.ContainsAny(seg, `*?[\`)
		for _, k := range level {
			if literal {
				if c, ok := t.Child(k, seg); ok {
					next = append(next, c)
				}
				continue
			}
			t.EachChild(k, func(c Key) {
				if ok, _ := path.Match(seg, t.Name(c)); ok {
					next = append(next, c)
				}
			})
		}
		level = next
		if len(level) == 0 {
			return nil
		}
	}
	slices.Sort(level) // siblings are in key order, but parents interleave
	return level
}

// SafeName makes s usable as one attribute path segment: storable
// ([SafeString]), no '/', never empty.
func SafeName(s string) string {
	s = strings.ReplaceAll(SafeString(s), "/", "_")
	if s == "" {
		return "_"
	}
	return s
}
