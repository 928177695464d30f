package history

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// The attribute tree is stored as fixed-width arrays (format in the
// package doc), so that an open index answers Child, Children, Name and
// Parent by reading the few pages each needs: opening a trace of a
// million threads costs what opening one of a thousand does.

const (
	attrHeadSize = 32
	attrPageSize = 4096
)

// attrLayout gives the offsets of the arrays of a stored attribute tree
// in its body, from the counts.
type attrLayout struct {
	a, n      uint64 // attributes, distinct names
	nameBytes uint64
}

func (l attrLayout) parentOff() uint64  { return 0 }
func (l attrLayout) nameOff() uint64    { return 4 * l.a }
func (l attrLayout) groupOff() uint64   { return 8 * l.a }
func (l attrLayout) kidsOff() uint64    { return 12*l.a + 8 }
func (l attrLayout) byNameOff() uint64  { return 16*l.a + 8 }
func (l attrLayout) nameEndOff() uint64 { return 20*l.a + 8 }
func (l attrLayout) namesOff() uint64   { return 20*l.a + 8 + 4*l.n }
func (l attrLayout) bodyLen() uint64    { return l.namesOff() + l.nameBytes }
func (l attrLayout) pages() uint64      { return (l.bodyLen() + attrPageSize - 1) / attrPageSize }

// bodyStart is the offset of the body in the section.
func (l attrLayout) bodyStart() uint64 { return attrHeadSize + 4*l.pages() }

// writeAttributes writes the attribute tree at off and returns the length
// of the section and the CRC32C of its head and page table. It streams the
// arrays from the tree and its child index (beside them it holds two
// int32 per distinct name, and a copy of the largest group of children).
func writeAttributes(w io.WriterAt, off uint64, tr *core.AttributeTree) (uint64, uint32, error) {
	a := tr.Len()
	// Names are stored sorted, so that a name is found by binary search
	// and children sorted by name id are sorted by name.
	name, numNames := tr.NameOfID, tr.NumNames()
	byText := make([]uint32, numNames)
	for i := range byText {
		byText[i] = uint32(i)
	}
	slices.SortFunc(byText, func(x, y uint32) int { return cmp.Compare(name(x), name(y)) })
	rank := make([]uint32, numNames)
	l := attrLayout{a: uint64(a), n: uint64(numNames)}
	for r, id := range byText {
		rank[id] = uint32(r)
		l.nameBytes += uint64(len(name(id)))
	}
	if l.nameBytes > 1<<32-1 || a > 1<<31-2 {
		return 0, 0, fmt.Errorf("history: attribute tree of %d names in %d bytes: too large for the format", numNames, l.nameBytes)
	}
	// Children grouped by parent (group 0: top level; group k+1: key k),
	// each group in key order: the tree's own index, which the browser's
	// rows built already.
	groups, kids := tr.ChildGroups()

	pw := newPageWriter(io.NewOffsetWriter(w, int64(off+l.bodyStart())))
	for k := range a {
		pw.u32(uint32(tr.Parent(core.Key(k))))
	}
	for k := range a {
		pw.u32(rank[tr.NameID(core.Key(k))])
	}
	for _, g := range groups {
		pw.u32(uint32(g))
	}
	for _, c := range kids {
		pw.u32(uint32(c))
	}
	// The same groups, each by name: sorted in a copy, as the index is
	// shared.
	var byName []core.Key
	for g := range a + 1 {
		byName = append(byName[:0], kids[groups[g]:groups[g+1]]...)
		slices.SortFunc(byName, func(x, y core.Key) int {
			return cmp.Compare(rank[tr.NameID(x)], rank[tr.NameID(y)])
		})
		for _, c := range byName {
			pw.u32(uint32(c))
		}
	}
	end := uint32(0)
	for _, id := range byText {
		end += uint32(len(name(id)))
		pw.u32(end)
	}
	for _, id := range byText {
		pw.write([]byte(name(id)))
	}
	crcs, err := pw.finish()
	if err != nil {
		return 0, 0, fmt.Errorf("history: write attribute tree: %w", err)
	}
	head := make([]byte, attrHeadSize, l.bodyStart())
	le.PutUint32(head[0:], uint32(a))
	le.PutUint32(head[4:], uint32(numNames))
	le.PutUint64(head[8:], l.nameBytes)
	le.PutUint32(head[16:], uint32(len(crcs)))
	for _, c := range crcs {
		head = le.AppendUint32(head, c)
	}
	if _, err := w.WriteAt(head, int64(off)); err != nil {
		return 0, 0, fmt.Errorf("history: write attribute tree: %w", err)
	}
	return l.bodyStart() + l.bodyLen(), core.CRC32C(head), nil
}

// pageWriter writes a byte stream and records the CRC32C of every page
// of attrPageSize bytes (the last may be short).
type pageWriter struct {
	w    *bufio.Writer
	page []byte
	crcs []uint32
	tmp  [4]byte
}

func newPageWriter(w io.Writer) *pageWriter {
	return &pageWriter{w: bufio.NewWriterSize(w, 1<<16), page: make([]byte, 0, attrPageSize)}
}

// u32 appends v. Every u32 of the section comes before its first byte
// string, at a multiple of 4: it never straddles a page, and takes the
// short way (5 M calls for 1.6 M attributes).
func (p *pageWriter) u32(v uint32) {
	if len(p.page)+4 > attrPageSize {
		le.PutUint32(p.tmp[:], v)
		p.write(p.tmp[:])
		return
	}
	p.page = le.AppendUint32(p.page, v)
	if len(p.page) == attrPageSize {
		p.flush()
	}
}

func (p *pageWriter) write(b []byte) {
	for len(b) > 0 {
		n := copy(p.page[len(p.page):attrPageSize], b)
		p.page, b = p.page[:len(p.page)+n], b[n:]
		if len(p.page) == attrPageSize {
			p.flush()
		}
	}
}

func (p *pageWriter) flush() {
	p.crcs = append(p.crcs, core.CRC32C(p.page))
	p.w.Write(p.page) // a write error sticks in the bufio.Writer: finish reports it
	p.page = p.page[:0]
}

func (p *pageWriter) finish() ([]uint32, error) {
	if len(p.page) > 0 {
		p.flush()
	}
	return p.crcs, p.w.Flush()
}
