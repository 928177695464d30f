package history

import (
	"cmp"
	"math"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// rbuffer is the R-SHT's R-buffer: the intervals that start after the
// current R-tree parent (the deepest eSHT node) wait here, in arrival
// order, until they fill an R-tree of height r; they are then bulk-loaded
// top-down under the parent (the article's Algorithm 2).
type rbuffer struct {
	t         *treeBuilder
	recs      []rec
	arena     []byte // the bytes of the string values of recs
	est       int64  // conservative size estimate of recs
	minStart  int64
	ratio     float64 // exact size over estimate, measured at the last sort
	height    int     // r for the current parent
	avgRec    float64 // exact bytes per record at the last load
	maxHeight int     // largest R-tree height loaded
	keys      int     // key count r was set for

	// Scratch reused across loads.
	sorted []rec // the buffer sorted by key: b.recs after sortByKey
	spare  []rec
	byKey  []rec   // a leaf's records re-sorted by key
	cand   []int32 // indices of outlier candidates
	taken  []bool  // records placed in the node being built
	durs   []int64
	sizes  []int32
	counts []int32  // sortByKey's count tables, one per pass
	data   [][]byte // record bytes per recursion level
	chunk  []byte   // the loaded R-tree's root block, then the blocks below it not yet written
	first  uint32   // seq of chunk[0:bs] for slots: the root's, then one before the unwritten blocks
	werr   error    // the first error writing blocks below the root
}

// fill is the fraction of an R-tree's capacity the buffer is loaded at:
// the slack absorbs the rounding of the splits, so nodes do not overflow
// into an extra level.
const fill = 0.94

// maxArena bounds the string bytes of the buffer (offsets are 32-bit).
const maxArena = 1 << 30

// minRecordBytes bounds the number of records the buffer holds to its
// capacity in bytes over this: when intervals compress well (a key's
// consecutive intervals take 3 or 4 bytes in a key-sorted leaf), the
// buffer is loaded as a partly filled R-tree rather than holding, at 32
// bytes each in memory, ten times more intervals than usual.
const minRecordBytes = 12

func newRBuffer(t *treeBuilder) *rbuffer {
	return &rbuffer{t: t, ratio: 1, avgRec: 12, minStart: math.MaxInt64}
}

// capacity returns the record bytes an R-tree of height h can hold.
func (b *rbuffer) capacity(h int) float64 {
	c := float64(b.t.leafCap)
	for range h - 1 {
		c = float64(b.t.coreCap) + float64(b.t.opts.MaxChildren)*c
	}
	return c
}

// setHeight sets r for the intervals being buffered: fixed, or the
// smallest r whose R-tree has at least A leaf records, c^(r-1)*n >= A for
// A keys and n records per leaf (r = 1 + ceil(log_c(A/n))), capped. That
// is one level more than the article's ceil(log_c(A/n)), which lets
// between 2 and c+1 R-trees overlap any time; with one more level an
// R-tree holds the current interval of every key and at most 2 overlap.
// The article changes r only when a new R-tree parent starts; here it
// follows A as soon as keys are added, so the R-trees loaded while a trace
// creates its keys do not keep a height chosen before they existed (see
// the package doc for the measurements).
func (b *rbuffer) setHeight() {
	o := b.t.opts
	b.keys = b.t.keyCount()
	if o.RHeight > 0 {
		b.height = o.RHeight
		return
	}
	n := float64(b.t.leafCap) / b.avgRec
	ratio := float64(b.keys) / n
	r, reach := 1, 1.0
	for reach < ratio && r < o.MaxRHeight {
		r++
		reach *= float64(o.MaxChildren)
	}
	b.height = r
}

func (b *rbuffer) add(r *rec, strs []byte) {
	if len(b.recs) == cap(b.recs) {
		// Grow at once to what a full buffer holds (full: its bytes, or
		// its records at minRecordBytes each), rather than in steps that
		// copy it: on this VM every fresh page costs 20 to 35 µs, and the
		// steps of a quarter allocated 2.5 times the buffer (24 MB on a
		// 16 000-thread trace, a tenth of its index time).
		want := int(b.capacity(b.height)/max(b.avgRec, minRecordBytes)) + 1
		b.recs = growFresh(b.recs, max(want-len(b.recs), 1024))
	}
	b.recs = append(b.recs, *r)
	if r.kind == core.KindString {
		s := r.str(strs)
		b.recs[len(b.recs)-1].num = uint64(len(b.arena))<<32 | uint64(len(s))
		b.arena = append(b.arena, s...)
	}
	b.est += int64(8 + uvarintLen(uint64(r.end-r.start)) + payloadSize(r))
	b.minStart = min(b.minStart, r.start)
}

func (b *rbuffer) full() bool {
	if b.t.keyCount() != b.keys {
		b.setHeight()
	}
	return float64(b.est)*b.ratio >= fill*b.capacity(b.height) || len(b.arena) > maxArena ||
		float64(len(b.recs)) >= b.capacity(b.height)/minRecordBytes
}

// flush bulk-loads the buffer under the R-tree parent. Unless forced, it
// first measures the exact size: when the estimate was pessimistic it only
// recalibrates and keeps buffering.
func (b *rbuffer) flush(force bool) error {
	t := b.t
	total := b.sortByKey()
	b.ratio = float64(total) / float64(b.est)
	if !force && float64(total) < 0.9*fill*b.capacity(b.height) && len(b.arena) <= maxArena &&
		float64(len(b.recs)) < b.capacity(b.height)/minRecordBytes {
		return nil
	}
	last := len(t.branch) - 1
	if len(t.branch[last].children) >= t.opts.MaxChildren {
		if err := t.roll(last, b.minStart); err != nil {
			return err
		}
		last = len(t.branch) - 1
	}
	p := t.branch[last]
	h := 1
	for float64(total) > fill*b.capacity(h) && h < 16 {
		h++
	}
	b.maxHeight = max(b.maxHeight, h)
	root := t.w.next
	b.first, b.chunk, b.werr = root, b.chunk[:0], nil
	c, height := b.build(b.sorted, h, p.seq, 0, total)
	if err := b.writeBelowRoot(); err != nil {
		return err
	}
	if err := t.w.write(root, b.chunk[:t.opts.BlockSize]); err != nil {
		return err
	}
	p.addChild(c, height)
	b.avgRec = float64(total) / float64(len(b.recs))
	b.recs, b.arena, b.est, b.minStart = b.recs[:0], b.arena[:0], 0, math.MaxInt64
	b.setHeight() // n may have changed
	return nil
}

// sizeOf fills b.sizes with the encoded size of each record of recs in
// sequence (from a node starting at start) and returns the sum.
func (b *rbuffer) sizeOf(recs []rec, start int64) int64 {
	b.sizes = grow(b.sizes, len(recs))
	s := newEncState(start)
	var total int64
	for i := range recs {
		n := s.recordSize(&recs[i])
		b.sizes[i] = int32(n)
		total += int64(n)
		s.advance(&recs[i])
	}
	return total
}

// build writes recs (sorted by class and key) as an R-tree of height about
// h under parent: the longest intervals fill the root, the rest is cut
// into consecutive (class, key) ranges of equal size, one per child. A
// node's own records are encoded in key order (a leaf spanning several
// classes is re-sorted), so that queries can merge them with their key
// list. It returns the root's entry and the sub-tree's height. total is
// the encoded size of recs as the parent measured it (within a few bytes
// of the size in a node of their own).
func (b *rbuffer) build(recs []rec, h int, parent uint32, level int, total int64) (child, int) {
	t := b.t
	bs := t.opts.BlockSize
	seq := t.w.alloc()
	slot := int(seq-b.first) * bs
	if len(b.chunk)+bs > cap(b.chunk) {
		b.chunk = growFresh(b.chunk, max(bs, len(b.chunk)))
	}
	b.chunk = b.chunk[:len(b.chunk)+bs]
	clear(b.chunk[slot:])

	minStart, maxEnd := int64(math.MaxInt64), int64(math.MinInt64)
	minKey, maxKey := int32(math.MaxInt32), int32(math.MinInt32)
	minClass, maxClass := uint16(noClassLo), uint16(noClassHi)
	keySorted := true
	for i := range recs {
		r := &recs[i]
		minStart, maxEnd = min(minStart, r.start), max(maxEnd, r.end)
		minKey, maxKey = min(minKey, r.key), max(maxKey, r.key)
		minClass, maxClass = min(minClass, r.class), max(maxClass, r.class)
		if i > 0 && r.key < recs[i-1].key {
			keySorted = false
		}
	}
	hdr := nodeHeader{seq: seq, parent: parent, start: core.Time(minStart), end: core.Time(maxEnd),
		minKey: core.Key(minKey), maxKey: core.Key(maxKey), minClass: minClass, maxClass: maxClass, flags: flagSortedByKey}
	for len(b.data) <= level {
		b.data = append(b.data, nil)
	}
	data := b.data[level][:0]

	if total <= int64(t.leafCap)+64 {
		leaf := recs
		if !keySorted {
			// Stable: each key's records stay in time order.
			b.byKey = append(b.byKey[:0], recs...)
			slices.SortStableFunc(b.byKey, func(x, y rec) int { return cmp.Compare(x.key, y.key) })
			leaf = b.byKey
		}
		s := newEncState(minStart)
		for i := range leaf {
			data = s.appendRecord(data, &leaf[i], b.arena)
		}
		if len(data) <= t.leafCap {
			hdr.typ, hdr.count = nodeLeaf, len(recs)
			b.data[level] = data
			b.put(slot, &hdr, nil, data)
			return hdr.entry(), 1
		}
		data = data[:0]
	}
	h = max(h, 2) // did not fit a leaf: one more level, whatever h said

	// Outliers: the k longest intervals, k as many as the root should hold.
	k := int(float64(t.coreCap) / (float64(total) / float64(len(recs))))
	k = min(max(k, 1), len(recs))
	b.durs = grow(b.durs, len(recs))
	for i := range recs {
		b.durs[i] = recs[i].end - recs[i].start
	}
	thr := nthLargest(b.durs[:len(recs)], k)
	above := 0
	for i := range recs {
		if recs[i].end-recs[i].start > thr {
			above++
		}
	}
	takeEq := k - above
	b.cand = b.cand[:0]
	for i := range recs {
		d := recs[i].end - recs[i].start
		if d > thr || d == thr && takeEq > 0 {
			if d == thr {
				takeEq--
			}
			b.cand = append(b.cand, int32(i))
		}
	}
	if !keySorted {
		// Stable: each key's candidates stay in time order.
		slices.SortStableFunc(b.cand, func(x, y int32) int { return cmp.Compare(recs[x].key, recs[y].key) })
	}
	b.taken = grow(b.taken, len(recs))
	clear(b.taken)
	s := newEncState(minStart)
	count := 0
	for _, i := range b.cand {
		old, saved := len(data), s
		data = s.appendRecord(data, &recs[i], b.arena)
		if len(data) > t.coreCap {
			data, s = data[:old], saved
			continue
		}
		b.taken[i] = true
		count++
	}
	w := 0
	for i := range recs {
		if !b.taken[i] {
			recs[w] = recs[i]
			w++
		}
	}
	b.data[level] = data
	rest := recs[:w]

	restBytes := b.sizeOf(rest, minStart)
	cuts := b.cuts(rest, restBytes, fill*b.capacity(h-1))

	// The children overwrite b.sizes: sum each part's bytes first.
	parts := make([]int64, len(cuts)-1)
	for j := range parts {
		for _, z := range b.sizes[cuts[j]:cuts[j+1]] {
			parts[j] += int64(z)
		}
	}
	children := make([]child, 0, len(cuts)-1)
	height := 0
	for j := 0; j+1 < len(cuts); j++ {
		c, ch := b.build(rest[cuts[j]:cuts[j+1]], h-1, seq, level+1, parts[j]+16)
		children = append(children, c)
		height = max(height, ch)
		if level == 0 && b.werr == nil {
			b.werr = b.writeBelowRoot()
		}
	}
	hdr.typ, hdr.count, hdr.flags = nodeCore, count, flagSortedByKey|flagKeySplit
	b.put(slot, &hdr, children, b.data[level])
	return hdr.entry(), height + 1
}

// cuts returns the boundaries of a node's children in rest, whose records
// have the encoded sizes b.sizes and sum restBytes, for children that hold
// up to capacity bytes each: consecutive (class, key) ranges of equal
// size, as few as fit. When there is room for it, the ranges also start
// at every change of class, each class cut into as few equal ranges as
// fit: children then hold one class, and a query for one class does not
// read the children that straddle it and its neighbours (their key
// ranges, from the end of one class's keys to the start of the next's,
// would match nearly any key list).
func (b *rbuffer) cuts(rest []rec, restBytes int64, capacity float64) []int {
	c := b.t.opts.MaxChildren
	parts := func(bytes int64, n int) int {
		return min(max(int(math.Ceil(float64(bytes)/capacity)), 1), n)
	}
	// equal appends to cuts the starts of k ranges of equal size of
	// rest[from:to] (bytes in all), the first at from.
	equal := func(cuts []int, from, to int, bytes int64, k int) []int {
		first := len(cuts)
		cuts = append(cuts, from)
		var acc int64
		for i := from; i < to; i++ {
			if n := len(cuts) - first; n < k && acc >= bytes*int64(n)/int64(k) && i > cuts[len(cuts)-1] {
				cuts = append(cuts, i)
			}
			acc += int64(b.sizes[i])
		}
		return cuts
	}
	var cuts []int
	if rest[0].class != rest[len(rest)-1].class {
		total, from := 0, 0
		var bytes int64
		for i := range rest {
			if i > 0 && rest[i].class != rest[i-1].class {
				total += parts(bytes, i-from)
				from, bytes = i, 0
			}
			bytes += int64(b.sizes[i])
		}
		total += parts(bytes, len(rest)-from)
		if total <= c {
			from, bytes = 0, 0
			for i := range rest {
				if i > 0 && rest[i].class != rest[i-1].class {
					cuts = equal(cuts, from, i, bytes, parts(bytes, i-from))
					from, bytes = i, 0
				}
				bytes += int64(b.sizes[i])
			}
			cuts = equal(cuts, from, len(rest), bytes, parts(bytes, len(rest)-from))
			return append(cuts, len(rest))
		}
	}
	cuts = equal(cuts, 0, len(rest), restBytes, min(parts(restBytes, len(rest)), c))
	return append(cuts, len(rest))
}

// writeBelowRoot writes the blocks of the chunk after the root's, the
// sub-trees of the root's children built so far, and keeps the root's.
// Their sequence numbers are consecutive (a sub-tree's nodes are
// numbered in its depth-first order), and the root's block is written
// last, once its entries are known. The chunk then holds one sub-tree of
// the root at most, not the whole R-tree: 256 KB instead of 2.3 MB
// (gen16k-8cpu) and 3.7 MB (gen200k), fresh pages at 20 to 35 us each on
// this VM.
func (b *rbuffer) writeBelowRoot() error {
	if b.werr != nil {
		return b.werr
	}
	bs := b.t.opts.BlockSize
	if len(b.chunk) > bs {
		if err := b.t.w.write(b.first+1, b.chunk[bs:]); err != nil {
			return err
		}
	}
	b.first, b.chunk = b.t.w.next-1, b.chunk[:bs]
	return nil
}

// put encodes a node block into its slot of the chunk.
func (b *rbuffer) put(slot int, h *nodeHeader, children []child, data []byte) {
	blk := b.chunk[slot : slot+b.t.opts.BlockSize]
	h.childCount, h.dataLen = len(children), len(data)
	h.put(blk)
	for i, c := range children {
		putChild(blk[nodeHeaderSize+i*childEntrySize:], c)
	}
	copy(blk[nodeHeaderSize+len(children)*childEntrySize:], data)
	sealBlock(blk)
}

// nthLargest returns the k-th largest value of v (1 <= k <= len(v)),
// reordering v (quickselect).
func nthLargest(v []int64, k int) int64 {
	lo, hi, target := 0, len(v)-1, k-1
	for lo < hi {
		p := v[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] > p {
				i++
			}
			for v[j] < p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case target <= j:
			hi = j
		case target >= i:
			lo = i
		default:
			return v[target]
		}
	}
	return v[target]
}

// grow returns s resized to n elements, without keeping its contents when
// it needs a larger array.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// growAtMost is grow with the spare capacity bounded: the array holds
// at most most elements (n when n is more).
func growAtMost[T any](s []T, n int, most int64) []T {
	if cap(s) < n {
		return make([]T, n, max(n, min(n+n/4, int(most))))
	}
	return s[:n]
}

// growFresh returns s with room for n more elements, its contents kept.
// append and slices.Grow clear the new array's tail in one call the
// scheduler cannot preempt; make does not clear memory fresh from the
// system (it is zero already), whose pages are then touched one by one as
// elements are written. Grown by slices.Grow, the 12 MB R-buffer of a
// 16 000-thread trace held up a garbage collection for 80 to 170 ms on
// this VM (a page fault costs 20 to 35 µs), with the analyses' goroutine
// stuck in its assist meanwhile.
func growFresh[T any](s []T, n int) []T {
	grown := make([]T, len(s), len(s)+n)
	copy(grown, s)
	return grown
}
