package history

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
)

// attrStore is a stored attribute tree read on demand ([core.AttributeStore]):
// the body is mapped (or, where mapping is not available, read) once, and
// every page is checked against its CRC32C the first time it is read.
// Values are checked as they are read, so that a damaged or crafted file
// never panics, loops or answers outside the tree: the damaged part reads
// as absent and Err reports it.
type attrStore struct {
	l        attrLayout
	body     []byte   // the body; valid while the store is reachable
	crcs     []uint32 // of the body's pages
	verified []atomic.Uint64
	path     string

	err atomic.Pointer[error] // the first damage met (or ErrTreeClosed)

	guard bodyGuard   // unmaps body on Close, once no reader is inside
	stale atomic.Bool // the file changed under the mapping: every read answers absent

	// names caches the ids of recently looked-up names: the browser asks
	// every thread for its "Exec_name", "PID" and "PPID" children, and
	// each lookup would otherwise binary-search all the names.
	names [nameCacheSlots]atomic.Pointer[cachedName]
}

const nameCacheSlots = 256

// cachedName is an entry of the name cache: the id of name, or -1 when
// no attribute has it.
type cachedName struct {
	name string
	id   int64
}

var _ core.AttributeStore = (*attrStore)(nil)

// openAttributes reads the section's head and page table, checks them
// against the file header and maps the body.
func openAttributes(f *os.File, path string, h *fileHeader) (*attrStore, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: attribute tree: %s", ErrCorrupt, fmt.Sprintf(format, a...))
	}
	if h.attrLen < attrHeadSize {
		return nil, bad("%d bytes", h.attrLen)
	}
	head := make([]byte, attrHeadSize)
	if _, err := f.ReadAt(head, int64(h.attrOff)); err != nil {
		return nil, fmt.Errorf("%w: attribute tree: %v", ErrTruncated, err)
	}
	l := attrLayout{a: uint64(le.Uint32(head[0:])), n: uint64(le.Uint32(head[4:])), nameBytes: le.Uint64(head[8:])}
	switch {
	case l.a != uint64(h.attrCount):
		return nil, bad("%d attributes, header says %d", l.a, h.attrCount)
	case l.n > l.a || l.nameBytes > h.attrLen:
		return nil, bad("%d names in %d bytes for %d attributes", l.n, l.nameBytes, l.a)
	case uint64(le.Uint32(head[16:])) != l.pages() || l.bodyStart()+l.bodyLen() != h.attrLen:
		return nil, bad("%d pages in %d bytes, the counts give %d in %d", le.Uint32(head[16:]), h.attrLen, l.pages(), l.bodyStart()+l.bodyLen())
	case !allZero(head[20:]):
		return nil, bad("reserved bytes set")
	}
	tab := make([]byte, l.bodyStart())
	copy(tab, head)
	if _, err := f.ReadAt(tab[attrHeadSize:], int64(h.attrOff)+attrHeadSize); err != nil {
		return nil, fmt.Errorf("%w: attribute tree: %v", ErrTruncated, err)
	}
	if got := core.CRC32C(tab); got != h.attrCRC {
		return nil, bad("checksum %08x, want %08x", got, h.attrCRC)
	}
	s := &attrStore{l: l, crcs: make([]uint32, l.pages()), verified: make([]atomic.Uint64, (l.pages()+63)/64), path: path}
	for i := range s.crcs {
		s.crcs[i] = le.Uint32(tab[attrHeadSize+4*i:])
	}
	body, release, err := mapFile(f, int64(h.attrOff+l.bodyStart()), int64(l.bodyLen()))
	if err != nil {
		return nil, fmt.Errorf("history: map the attribute tree: %w", err)
	}
	s.body = body
	if release != nil {
		// Unmapped by Close (see bodyGuard), or, for a tree never closed,
		// once nothing can read it any more: every read of the body is
		// followed by runtime.KeepAlive(s). Once only, whichever comes
		// first: the range may be mapped again by then.
		release = sync.OnceFunc(release)
		runtime.AddCleanup(s, func(release func()) { release() }, release)
	}
	s.guard = newBodyGuard(release)
	return s, nil
}

func allZero(b []byte) bool { return !bytes.ContainsFunc(b, func(r rune) bool { return r != 0 }) }

// enter starts a read of the body: it reports false when the store is
// closed or its file changed. Until the matching leave, a fault on the
// mapping (SIGBUS: the file was truncated under it) panics instead of
// killing the process, and leave turns it into damage. It returns the
// goroutine's previous fault setting, for leave.
func (s *attrStore) enter() (faults bool, ok bool) {
	if s.stale.Load() || !s.guard.enter() {
		return false, false
	}
	return debug.SetPanicOnFault(true), true
}

// leave ends a read started by a successful enter; it must be deferred
// by the method that called enter, so that its recover sees a fault of
// the read. Any other panic goes on.
func (s *attrStore) leave(faults bool) {
	debug.SetPanicOnFault(faults)
	s.guard.leave()
	if r := recover(); r != nil {
		if _, fault := r.(interface{ Addr() uintptr }); !fault {
			panic(r)
		}
		s.changed(fmt.Sprint(r))
	}
}

// changed marks the store's file as changed under the mapping: the reads
// in progress may have seen other bytes, and every later one answers as
// absent, Err reporting why.
func (s *attrStore) changed(why string) {
	s.stale.Store(true)
	err := fmt.Errorf("history: %s: %w: the index file changed while it was open (%s): it was truncated or rewritten by another program", s.path, ErrCorrupt, why)
	s.err.CompareAndSwap(nil, &err)
}

// fail records the first damage met.
func (s *attrStore) fail(format string, a ...any) {
	err := fmt.Errorf("history: %s: %w: attribute tree: %s", s.path, ErrCorrupt, fmt.Sprintf(format, a...))
	s.err.CompareAndSwap(nil, &err)
}

// Err implements [core.AttributeStore].
func (s *attrStore) Err() error {
	if p := s.err.Load(); p != nil {
		return *p
	}
	return nil
}

// readable checks the pages of body bytes [off, off+n) (once each) and
// reports whether they can be read.
func (s *attrStore) readable(off, n uint64) bool {
	if off+n > uint64(len(s.body)) || off+n < off {
		s.fail("bytes [%d, +%d) outside the body of %d", off, n, len(s.body))
		return false
	}
	if n == 0 {
		return true
	}
	for p := off / attrPageSize; p <= (off+n-1)/attrPageSize; p++ {
		word, bit := &s.verified[p/64], uint64(1)<<(p%64)
		if word.Load()&bit != 0 {
			continue
		}
		end := min((p+1)*attrPageSize, uint64(len(s.body)))
		got := core.CRC32C(s.body[p*attrPageSize : end])
		runtime.KeepAlive(s)
		if got != s.crcs[p] {
			s.fail("page %d checksum %08x, want %08x", p, got, s.crcs[p])
			return false
		}
		word.Or(bit)
	}
	return true
}

// u32 reads the i-th uint32 of the array at off.
func (s *attrStore) u32(off, i uint64) (uint32, bool) {
	o := off + 4*i
	if !s.readable(o, 4) {
		return 0, false
	}
	v := le.Uint32(s.body[o:])
	runtime.KeepAlive(s)
	return v, true
}

// Len implements [core.AttributeStore].
func (s *attrStore) Len() int { return int(s.l.a) }

func (s *attrStore) valid(k core.Key) bool { return k >= 0 && uint64(k) < s.l.a }

// Parent implements [core.AttributeStore]; Root for a key out of range.
func (s *attrStore) Parent(k core.Key) core.Key {
	if !s.valid(k) {
		return core.Root
	}
	faults, ok := s.enter()
	if !ok {
		return core.Root
	}
	defer s.leave(faults)
	v, ok := s.u32(s.l.parentOff(), uint64(k))
	p := core.Key(int32(v))
	if !ok || p < core.Root || p >= k {
		if ok {
			s.fail("key %d: parent %d", k, p)
		}
		return core.Root
	}
	return p
}

// nameID returns the rank of k's name among the sorted names.
func (s *attrStore) nameID(k core.Key) (uint32, bool) {
	if !s.valid(k) {
		return 0, false
	}
	id, ok := s.u32(s.l.nameOff(), uint64(k))
	if ok && uint64(id) >= s.l.n {
		s.fail("key %d: name %d of %d", k, id, s.l.n)
		return 0, false
	}
	return id, ok
}

// name calls fn with the bytes of name id (valid during the call only).
func (s *attrStore) name(id uint32, fn func([]byte)) bool {
	var start uint32
	if id > 0 {
		v, ok := s.u32(s.l.nameEndOff(), uint64(id-1))
		if !ok {
			return false
		}
		start = v
	}
	end, ok := s.u32(s.l.nameEndOff(), uint64(id))
	if !ok {
		return false
	}
	if start > end || uint64(end) > s.l.nameBytes {
		s.fail("name %d at [%d, %d) of %d bytes", id, start, end, s.l.nameBytes)
		return false
	}
	if !s.readable(s.l.namesOff()+uint64(start), uint64(end-start)) {
		return false
	}
	fn(s.body[s.l.namesOff()+uint64(start) : s.l.namesOff()+uint64(end)])
	runtime.KeepAlive(s)
	return true
}

// Name implements [core.AttributeStore]; "" for a key out of range.
func (s *attrStore) Name(k core.Key) string {
	var out string
	faults, ok := s.enter()
	if !ok {
		return out
	}
	defer s.leave(faults)
	if id, ok := s.nameID(k); ok {
		s.name(id, func(b []byte) { out = string(b) })
	}
	return out
}

// group returns the range of the children of k (Root: the top level) in
// the kids and byName arrays.
func (s *attrStore) group(k core.Key) (uint32, uint32, bool) {
	if k != core.Root && !s.valid(k) {
		return 0, 0, false
	}
	g := uint64(k + 1)
	lo, ok1 := s.u32(s.l.groupOff(), g)
	hi, ok2 := s.u32(s.l.groupOff(), g+1)
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	if lo > hi || uint64(hi) > s.l.a {
		s.fail("children of key %d at [%d, %d) of %d", k, lo, hi, s.l.a)
		return 0, 0, false
	}
	return lo, hi, true
}

// kid returns entry i of the array at off if it is a child of parent.
func (s *attrStore) kid(off uint64, i uint32, parent core.Key) (core.Key, bool) {
	v, ok := s.u32(off, uint64(i))
	c := core.Key(int32(v))
	if !ok || !s.valid(c) || s.Parent(c) != parent {
		if ok {
			s.fail("child %d of key %d", c, parent)
		}
		return 0, false
	}
	return c, true
}

// EachChild implements [core.AttributeStore]: children in key order.
func (s *attrStore) EachChild(k core.Key, fn func(core.Key)) {
	faults, ok := s.enter()
	if !ok {
		return
	}
	defer s.leave(faults)
	lo, hi, ok := s.group(k)
	if !ok {
		return
	}
	for i := lo; i < hi; i++ {
		if c, ok := s.kid(s.l.kidsOff(), i, k); ok {
			fn(c)
		}
	}
}

// NumChildren implements [core.AttributeStore].
func (s *attrStore) NumChildren(k core.Key) int {
	faults, ok := s.enter()
	if !ok {
		return 0
	}
	defer s.leave(faults)
	lo, hi, _ := s.group(k)
	return int(hi - lo)
}

// ChildRange implements [core.AttributeStore].
func (s *attrStore) ChildRange(k core.Key, lo, hi int) []core.Key {
	faults, ok := s.enter()
	if !ok {
		return nil
	}
	defer s.leave(faults)
	glo, ghi, ok := s.group(k)
	n := int(ghi - glo)
	lo, hi = max(lo, 0), min(hi, n)
	if !ok || lo >= hi {
		return nil
	}
	out := make([]core.Key, 0, hi-lo)
	for i := glo + uint32(lo); i < glo+uint32(hi); i++ {
		if c, ok := s.kid(s.l.kidsOff(), i, k); ok {
			out = append(out, c)
		}
	}
	return out
}

// Child implements [core.AttributeStore]: the name's id (a binary search
// of the sorted names, or the cache), then a binary search of the
// parent's children sorted by name.
func (s *attrStore) Child(parent core.Key, name string) (core.Key, bool) {
	faults, ok := s.enter()
	if !ok {
		return 0, false
	}
	defer s.leave(faults)
	id, ok := s.findName(name)
	if !ok {
		return 0, false
	}
	lo, hi, ok := s.group(parent)
	if !ok {
		return 0, false
	}
	i := lo + uint32(sort.Search(int(hi-lo), func(j int) bool {
		c, ok := s.kid(s.l.byNameOff(), lo+uint32(j), parent)
		cid, ok2 := s.nameID(c)
		return !ok || !ok2 || cid >= id
	}))
	if i == hi {
		return 0, false
	}
	c, ok := s.kid(s.l.byNameOff(), i, parent)
	if cid, ok2 := s.nameID(c); !ok || !ok2 || cid != id {
		return 0, false
	}
	return c, true
}

// findName returns the id of name, through the cache.
func (s *attrStore) findName(name string) (uint32, bool) {
	slot := &s.names[fnv1a(name)%nameCacheSlots]
	if e := slot.Load(); e != nil && e.name == name {
		return uint32(e.id), e.id >= 0
	}
	id, ok := s.searchName(name)
	e := &cachedName{name: name, id: -1}
	if ok {
		e.id = int64(id)
	}
	if s.Err() == nil { // damage met during the search must not be cached
		slot.Store(e)
	}
	return id, ok
}

// searchName binary-searches the sorted names.
func (s *attrStore) searchName(name string) (uint32, bool) {
	failed, want := false, []byte(name)
	n := sort.Search(int(s.l.n), func(i int) bool {
		c := 0
		failed = !s.name(uint32(i), func(b []byte) { c = bytes.Compare(b, want) }) || failed
		return c >= 0
	})
	if failed || uint64(n) >= s.l.n {
		return 0, false
	}
	equal := false
	s.name(uint32(n), func(b []byte) { equal = string(b) == name })
	return uint32(n), equal
}

// errAttrCheck wraps what check finds.
var errAttrCheck = errors.New("attribute tree")

// check reads the whole stored tree and verifies every invariant: page
// checksums, parents before children, names sorted and distinct, each
// key listed once among its parent's children in key order and once in
// name order.
func (s *attrStore) check() error {
	faults, ok := s.enter()
	if !ok {
		return s.Err()
	}
	defer s.leave(faults)
	if !s.readable(0, uint64(len(s.body))) {
		return s.Err()
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("history: %s: %w: %w: %s", s.path, ErrCorrupt, errAttrCheck, fmt.Sprintf(format, a...))
	}
	var prev []byte
	for i := range uint32(s.l.n) {
		var err error
		s.name(i, func(b []byte) {
			if i > 0 && bytes.Compare(prev, b) >= 0 {
				err = bad("names %d and %d out of order", i-1, i)
			}
			prev = append(prev[:0], b...)
		})
		if err != nil {
			return err
		}
	}
	for k := range core.Key(s.l.a) {
		s.Parent(k)
		s.nameID(k)
	}
	if err := s.Err(); err != nil {
		return err
	}
	if lo, _, _ := s.group(core.Root); lo != 0 {
		return bad("first group at %d", lo)
	}
	if _, hi, _ := s.group(core.Key(s.l.a) - 1); s.l.a > 0 && uint64(hi) != s.l.a {
		return bad("last group ends at %d of %d", hi, s.l.a)
	}
	for k := core.Root; k < core.Key(s.l.a); k++ {
		lo, hi, ok := s.group(k)
		if !ok {
			return s.Err()
		}
		prevKid, prevID := core.Key(-1), int64(-1)
		for i := lo; i < hi; i++ {
			c, ok := s.kid(s.l.kidsOff(), i, k)
			if !ok || c <= prevKid {
				return bad("children of key %d out of key order at %d", k, i)
			}
			prevKid = c
			d, ok := s.kid(s.l.byNameOff(), i, k)
			id, _ := s.nameID(d)
			if !ok || int64(id) <= prevID {
				return bad("children of key %d out of name order at %d", k, i)
			}
			prevID = int64(id)
		}
	}
	return s.Err()
}

// fnv1a hashes a name for the name cache.
func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}
