package pstree

import (
	"bytes"
	"context"
)

// Containing calls fn, in row order, with each row whose label contains
// lit, its record and its label (valid only during the call), until fn
// returns false. Where [Rows.Scan] decodes every record, Containing
// searches the labels' bytes a megabyte at a time and reads the records of
// the rows it finds only: a rare literal among millions of rows costs one
// read of the labels. An empty lit is every row. It returns ctx's error if
// ctx is done before the end; damage is reported as for Scan and ends the
// search.
func (rs *Rows) Containing(ctx context.Context, lit []byte, fn func(i int32, r RowInfo, label []byte) bool) error {
	return rs.containing(ctx, lit, maxScanHeap, fn)
}

// containing is Containing reading the labels chunk bytes at a time.
func (rs *Rows) containing(ctx context.Context, lit []byte, chunkLen int64, fn func(i int32, r RowInfo, label []byte) bool) error {
	if len(lit) == 0 {
		var err error
		rs.Scan(0, int32(rs.n), func(i int32, r RowInfo, label []byte) bool {
			if i%ctxCheckRows == 0 {
				err = ctx.Err()
			}
			return err == nil && fn(i, r, label)
		})
		return err
	}
	base, heap, n := rs.heapBase(), int64(rs.heap), int64(len(lit))
	var scratch, one []byte
	next := int32(0) // the rows before next are done
	for pos := int64(0); pos < heap; {
		if err := ctx.Err(); err != nil {
			return err
		}
		// Matches starting in [pos, to), read with the n-1 bytes after to
		// that a match straddling the chunk's end needs.
		from, to := pos, min(pos+chunkLen, heap)
		end := min(to+n-1, heap)
		chunk, ok := rs.span(&scratch, base+from, end-from)
		if !ok {
			return nil
		}
		for pos < to {
			j := bytes.Index(chunk[pos-from:], lit)
			if j < 0 || pos+int64(j) >= to {
				pos = to
				break
			}
			o := pos + int64(j)
			i, r, found := rs.labelHolding(o, n, next)
			if !found { // the bytes run across two labels
				pos = o + 1
				continue
			}
			lo, hi := int64(r.labelOff), int64(r.labelOff)+int64(r.labelLen)
			label := chunk[min(max(lo-from, 0), int64(len(chunk))):min(max(hi-from, 0), int64(len(chunk)))]
			if lo < from || hi > end { // the label began in the chunk before, or ends after
				if one, ok = rs.read(one[:0], base+lo, hi-lo); !ok {
					return nil
				}
				label = one
			}
			if !fn(i, r, label) {
				return nil
			}
			next, pos = i+1, max(o+1, hi)
		}
	}
	return nil
}

// ctxCheckRows is how many rows a search reads between two looks at its
// context: about a millisecond of work.
const ctxCheckRows = 1 << 14

// labelHolding returns the row, from next on, whose label holds the n
// heap bytes at o, and false when no label does (the bytes straddle two
// labels). The labels are in the heap in row order, so the row is found
// by galloping from next over the records' label offsets; damaged or
// disordered records only make it answer false.
func (rs *Rows) labelHolding(o, n int64, next int32) (int32, RowInfo, bool) {
	if next < 0 || int(next) >= rs.n {
		return 0, RowInfo{}, false
	}
	startsBy := func(i int32) bool { return int64(rs.Row(i).labelOff) <= o }
	if !startsBy(next) {
		return 0, RowInfo{}, false
	}
	// Gallop: the last row starting by o is in [lo, hi).
	lo, step := next, int32(1)
	hi := lo + step
	for int(hi) < rs.n && startsBy(hi) {
		lo, step = hi, step*2
		hi = lo + min(step, int32(rs.n)-lo)
	}
	hi = min(hi, int32(rs.n))
	for hi-lo > 1 { // startsBy(lo) holds, startsBy(hi) does not (or hi == n)
		mid := lo + (hi-lo)/2
		if startsBy(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	r := rs.Row(lo)
	if o+n > int64(r.labelOff)+int64(r.labelLen) {
		return 0, RowInfo{}, false
	}
	return lo, r, true
}
