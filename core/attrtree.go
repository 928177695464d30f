package core

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Root is the parent of top-level attributes.
const Root Key = -1

// AttributeTree maps hierarchical attribute paths ("Threads/42/Exec_name")
// to dense [Key]s. Every prefix of a path has its own key, and a parent is
// always created before its children, so Parent(k) < k.
//
// It is stored compactly (two int32 per attribute, one map entry, one
// interned name) because kernel traces can have millions of threads. It is
// not safe for concurrent mutation; once built, any number of goroutines
// may read it.
type AttributeTree struct {
	// The attributes by key, in pages of attrPageLen: the tree grows
	// without copying itself (a slice of ten million attributes held
	// twice while it doubled), and a key's parent and name are read
	// together (one cache miss per probe of the key table).
	pages [][]attrEntry
	n     int

	// The interned names by id, in pages of namePageLen: the slice of
	// a million names, grown by copying, was up to a tenth of the
	// analyses' CPU (copying pointers while a collection runs).
	names   [][]string
	nNames  int
	nameIDs map[string]uint32 // name -> id, but for decimal names
	// decimals maps the names that are decimal numbers (threads,
	// processes, CPUs: most names of a kernel trace, one per thread) by
	// their value (a build of 200 000 threads spent a tenth of its
	// analyses' time in a map of strings), see decimalIDs.
	decimals decimalIDs
	child    keyTable // (parent, name id) -> key

	// kids lists the children of every key, built on the first EachChild
	// after keys were added: the analyses that build the tree never list
	// children, so it costs them nothing (it was three int32 per key).
	kidsMu sync.Mutex
	kids   atomic.Pointer[childIndex]

	// stored, when set, holds the whole tree instead of the fields above:
	// a read-only tree kept in an index file and read on demand.
	stored AttributeStore
}

// AttributeStore is a read-only attribute tree kept outside memory (in an
// index file) and read on demand, so that opening a trace of millions of
// attributes does not load them all. Its methods have the meaning of the
// [AttributeTree] methods of the same names. A store that finds itself
// damaged answers as if the damaged parts were absent (no key, empty name,
// Root parent) and reports the damage through Err.
type AttributeStore interface {
	Len() int
	Parent(k Key) Key
	Name(k Key) string
	Child(parent Key, name string) (Key, bool)
	EachChild(k Key, fn func(Key))
	NumChildren(k Key) int
	ChildRange(k Key, lo, hi int) []Key
	Err() error
}

// NewStoredAttributeTree returns a read-only tree backed by s. Add,
// AddPath and Grow panic on it.
func NewStoredAttributeTree(s AttributeStore) *AttributeTree {
	return &AttributeTree{stored: s}
}

// Err returns the first damage a stored tree met while being read (nil
// for a tree in memory).
func (t *AttributeTree) Err() error {
	if t.stored != nil {
		return t.stored.Err()
	}
	return nil
}

// NumNames returns the number of interned names of an in-memory tree
// (ids 0 to NumNames()-1, see NameID); 0 for a stored tree.
func (t *AttributeTree) NumNames() int { return t.nNames }

// NameOfID returns the interned name with the given id (in-memory trees
// only).
func (t *AttributeTree) NameOfID(id uint32) string {
	return t.names[id/namePageLen][id%namePageLen]
}

// namePageLen is the number of names of a full page (256 KiB).
const namePageLen = 1 << 14

// NameID returns the id of k's name in Names (in-memory trees only).
func (t *AttributeTree) NameID(k Key) uint32 { return t.entry(k).name }

// mustBeMutable panics on a stored tree: adding to it is a programming
// error.
func (t *AttributeTree) mustBeMutable() {
	if t.stored != nil {
		panic("core: AttributeTree: adding to a read-only stored tree")
	}
}

// attrPageLen is the number of attributes of a full page (512 KiB).
const attrPageLen = 1 << 16

// attrEntry is one attribute: its parent and the id of its name.
type attrEntry struct {
	parent Key
	name   uint32
}

// entry returns key k's attribute, k < t.n.
func (t *AttributeTree) entry(k Key) *attrEntry {
	return &t.pages[k/attrPageLen][k%attrPageLen]
}

// childIndex holds the children of each key, grouped by parent (group 0:
// the top level, group k+1: key k), in key order within a group.
type childIndex struct {
	start []int32 // group g is keys[start[g]:start[g+1]]
	keys  []Key
}

// children returns the child index of the tree as it is now.
func (t *AttributeTree) children() *childIndex {
	n := t.n
	if ix := t.kids.Load(); ix != nil && len(ix.keys) == n {
		return ix
	}
	t.kidsMu.Lock()
	defer t.kidsMu.Unlock()
	if ix := t.kids.Load(); ix != nil && len(ix.keys) == n {
		return ix
	}
	ix := &childIndex{start: make([]int32, n+2), keys: make([]Key, n)}
	for k := range Key(n) {
		ix.start[t.entry(k).parent+2]++
	}
	for g := 1; g < len(ix.start); g++ {
		ix.start[g] += ix.start[g-1]
	}
	fill := slices.Clone(ix.start[:n+1])
	for k := range Key(n) {
		p := t.entry(k).parent
		ix.keys[fill[p+1]] = k
		fill[p+1]++
	}
	t.kids.Store(ix)
	return ix
}

// NewAttributeTree returns an empty tree.
func NewAttributeTree() *AttributeTree {
	return &AttributeTree{nameIDs: map[string]uint32{}}
}

// Len returns the number of attributes; keys are 0 .. Len()-1.
func (t *AttributeTree) Len() int {
	if t.stored != nil {
		return t.stored.Len()
	}
	return t.n
}

// Valid reports whether k is a key of the tree.
func (t *AttributeTree) Valid(k Key) bool { return k >= 0 && int(k) < t.Len() }

// Add returns the key of the child called name under parent (use [Root]
// for a top-level attribute), creating it if needed. It panics if parent is
// neither Root nor a key of the tree: that is a programming error.
func (t *AttributeTree) Add(parent Key, name string) Key {
	t.mustBeMutable()
	t.mustBeParent(parent)
	return t.add(parent, t.intern(name))
}

// Intern returns the id of name (as NameID gives it), interning it the
// first time, for [AttributeTree.AddID]. It panics on a stored tree.
func (t *AttributeTree) Intern(name string) uint32 {
	t.mustBeMutable()
	return t.intern(name)
}

// AddID is [AttributeTree.Add] with the name given by its id from
// [AttributeTree.Intern]: an analysis that adds the same names under
// every thread (Exec_name, PID, ...) looks each up once instead of once
// per thread (hashing the string in a map: 5% of the kernel analysis's
// CPU at 200 000 threads). Ids name the same strings whether a name was
// interned by Intern or Add, so the tree is the same either way. It
// panics on an id that Intern did not return.
func (t *AttributeTree) AddID(parent Key, id uint32) Key {
	t.mustBeMutable()
	t.mustBeParent(parent)
	if int(id) >= t.nNames {
		panic("core: AttributeTree.AddID: name id not from Intern")
	}
	return t.add(parent, id)
}

// mustBeParent panics if parent is neither Root nor a key of the tree:
// that is a programming error.
func (t *AttributeTree) mustBeParent(parent Key) {
	if parent != Root && !t.Valid(parent) {
		panic("core: AttributeTree.Add: invalid parent key")
	}
}

// add returns the key of (parent, name id), creating it if needed.
func (t *AttributeTree) add(parent Key, id uint32) Key {
	// One probe finds the key or the slot of the new one (a new name has
	// no key, but the probe still finds its slot): the table makes room
	// first, so the slot stays valid.
	t.reserve(t.child.n + 1)
	k, slot := t.probe(parent, id)
	if k >= 0 {
		return k
	}
	k = Key(t.n)
	t.pages = AppendPaged(t.pages, t.n, attrPageLen, attrEntry{parent, id})
	t.n++
	t.child.slots[slot], t.child.tags[slot] = int32(k)+1, refTag(refHash(parent, id))
	t.child.n++
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
	if t.stored != nil {
		return t.stored.Child(parent, name)
	}
	id, ok := t.nameID(name)
	if !ok {
		return 0, false
	}
	if k := t.find(parent, id); k >= 0 {
		return k, true
	}
	return 0, false
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
func (t *AttributeTree) Parent(k Key) Key {
	if t.stored != nil {
		return t.stored.Parent(k)
	}
	return t.entry(k).parent
}

// Name returns the last path segment of k.
func (t *AttributeTree) Name(k Key) string {
	if t.stored != nil {
		return t.stored.Name(k)
	}
	return t.NameOfID(t.entry(k).name)
}

// Path returns the '/'-separated path of k.
func (t *AttributeTree) Path(k Key) string {
	var segs []string
	for ; k != Root; k = t.Parent(k) {
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
	if t.stored != nil {
		t.stored.EachChild(k, fn)
		return
	}
	ix := t.children()
	for _, c := range ix.keys[ix.start[k+1]:ix.start[k+2]] {
		fn(c)
	}
}

// ChildGroups returns the children of every key (in-memory trees only),
// grouped by parent: keys[start[0]:start[1]] are the top-level attributes,
// keys[start[k+1]:start[k+2]] the children of key k, each group in key
// order. It is the index EachChild reads, built once for the tree as it
// is (the index's encoding and the browser's rows share it): the caller
// must not modify it.
func (t *AttributeTree) ChildGroups() (start []int32, keys []Key) {
	ix := t.children()
	return ix.start, ix.keys
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

// NumChildren returns the number of children of k (or of top-level
// attributes for Root). On a stored tree it costs two reads, whatever the
// count; on a tree in memory it walks the children.
func (t *AttributeTree) NumChildren(k Key) int {
	if t.stored != nil {
		return t.stored.NumChildren(k)
	}
	ix := t.children()
	return int(ix.start[k+2] - ix.start[k+1])
}

// ChildRange returns children lo to hi-1 of k (or top-level attributes for
// Root) in creation order, clipped to the children there are: a page of a
// long list (a million threads) without reading the rest on a stored tree.
func (t *AttributeTree) ChildRange(k Key, lo, hi int) []Key {
	if t.stored != nil {
		return t.stored.ChildRange(k, lo, hi)
	}
	ix := t.children()
	kids := ix.keys[ix.start[k+1]:ix.start[k+2]]
	lo, hi = max(lo, 0), min(hi, len(kids))
	if lo >= hi {
		return nil
	}
	return slices.Clone(kids[lo:hi])
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
