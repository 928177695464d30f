package frame

import (
	"math"

	"github.com/tracetui/tracetui/core"
)

// A frame's cells: the time each value covers in each (row, column), the
// dominant value, the "changed more than once" mark and counter levels.

// slotAcc accumulates, for one cell, the time each value covers.
type slotAcc struct {
	vals    [slotsPerCel]int32 // value ids, -1 for an empty slot
	durs    [slotsPerCel]core.Time
	n       int32     // intervals met in the column
	covered core.Time // time covered by them
}

// add adds d to value id; it returns false when the slots are full of
// other values (the caller keeps the rest in its overflow map).
func (a *slotAcc) add(id int32, d core.Time) bool {
	a.n++
	a.covered += d
	for i := range a.vals {
		switch a.vals[i] {
		case id:
			a.durs[i] += d
			return true
		case -1:
			a.vals[i], a.durs[i] = id, d
			return true
		}
	}
	return false
}

// overflowSlot is a value beyond a cell's slots: rare (more than
// slotsPerCel distinct states in one column) but kept exact.
type overflowSlot struct {
	id  int32
	dur core.Time
}

// addCell adds d of value id to a cell.
func (b *FrameBuilder) addCell(cell int, id int32, d core.Time) {
	if !b.acc[cell].add(id, d) {
		b.addOverflow(cell, id, d)
	}
}

func (b *FrameBuilder) addOverflow(cell int, id int32, d core.Time) {
	if b.overflow == nil {
		b.overflow = map[int][]overflowSlot{}
	}
	slots := b.overflow[cell]
	for i := range slots {
		if slots[i].id == id {
			slots[i].dur += d
			return
		}
	}
	b.overflow[cell] = append(slots, overflowSlot{id, d})
}

// colOf returns the column holding t (T0 <= t <= T1).
func (b *FrameBuilder) colOf(t core.Time) int {
	c := b.Req.Window.ColOf(t)
	for c > 0 && b.Starts[c] > t {
		c--
	}
	return c
}

// intern returns a dense id for a value; kernel statuses avoid the map.
func (b *FrameBuilder) intern(v core.Value) int32 {
	n := v.Int()
	small := (v.Kind() == core.KindInt32 || v.Kind() == core.KindInt64) && n >= 0 && n < int64(len(b.smallIDs))
	if small {
		if id := b.smallIDs[n]; id >= 0 && b.values[id] == v {
			return id
		}
	}
	if id, ok := b.ids[v]; ok {
		return id
	}
	id := int32(len(b.values))
	b.values = append(b.values, v)
	if small && b.smallIDs[n] < 0 {
		b.smallIDs[n] = id
	} else {
		b.ids[v] = id
	}
	return id
}

// shortSlice returns, for a column where null lasts longest, the longest
// string state in it: a slice much shorter than a column (a 10 us Chrome
// slice at x1) is then drawn, marked as changed more than once, instead
// of leaving its row empty. Numeric states (kernel statuses) keep the
// rule of the longest.
func (b *FrameBuilder) shortSlice(a *slotAcc, overflow []overflowSlot, null int32) int32 {
	id, best := null, core.Time(0)
	for i := 0; i < slotsPerCel && a.vals[i] >= 0; i++ {
		if v := b.values[a.vals[i]]; v.Kind() == core.KindString && a.durs[i] > best {
			id, best = a.vals[i], a.durs[i]
		}
	}
	for _, o := range overflow {
		if v := b.values[o.id]; v.Kind() == core.KindString && o.dur > best {
			id, best = o.id, o.dur
		}
	}
	return id
}

// finish turns the accumulators into cells.
func (b *FrameBuilder) finish() []cell {
	cells := make([]cell, len(b.acc))
	paints := make([][]Paint, domainCounter+1) // per domain, per value id, computed lazily
	for d := range paints {
		paints[d] = make([]Paint, len(b.values))
		for i := range paints[d] {
			paints[d][i] = Paint{Colour: 255}
		}
	}
	for r, row := range b.Req.Rows {
		for c := 0; c < b.Cols; c++ {
			a := &b.acc[r*b.Cols+c]
			if a.n == 0 {
				continue
			}
			best := 0
			for i := 1; i < slotsPerCel && a.vals[i] >= 0; i++ {
				if a.durs[i] > a.durs[best] {
					best = i
				}
			}
			id, bestDur := a.vals[best], a.durs[best]
			for _, o := range b.overflow[r*b.Cols+c] {
				if o.dur > bestDur {
					id, bestDur = o.id, o.dur
				}
			}
			if b.values[id].IsNull() {
				id = b.shortSlice(a, b.overflow[r*b.Cols+c], id)
			}
			p := &paints[row.Domain][id]
			if p.Colour == 255 {
				*p = PaintOf(row.Domain, b.values[id])
			}
			if row.Domain == DomainFrame || row.Domain == DomainThread && b.values[id].Kind() == core.KindString {
				if np, ok := b.framePaint(row.Key, id); ok {
					p = &np // per thread: named by its process's symbols
				}
			}
			width := b.Starts[c+1] - b.Starts[c]
			changes := a.n - 1
			if a.covered < width {
				changes++ // a gap between known intervals hid at least one more
			}
			if b.served != nil && b.served[r] {
				changes = b.sumCells[r*b.Cols+c].changes
			}
			cells[r*b.Cols+c] = cell{Paint: *p, Known: true, Multi: changes >= 2}
			if row.Domain == domainCounter {
				b.levelIDs = append(b.levelIDs, id)
			}
		}
		if row.Domain == domainCounter {
			b.counterLevels(cells[r*b.Cols : (r+1)*b.Cols])
		}
	}
	return cells
}

// counterLevels gives each known cell of a counter row its height, 1 to
// 8, scaled between the lowest and highest value of the row on screen
// (the dominant value of each column; null stays empty).
func (b *FrameBuilder) counterLevels(row []cell) {
	ids := b.levelIDs
	b.levelIDs = b.levelIDs[:0]
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, id := range ids {
		if v := b.values[id]; !v.IsNull() {
			lo, hi = min(lo, v.Float()), max(hi, v.Float())
		}
	}
	j := 0
	for c := range row {
		if !row[c].Known {
			continue
		}
		v := b.values[ids[j]]
		j++
		if v.IsNull() {
			continue
		}
		level := uint8(8)
		if hi > lo {
			level = 1 + uint8(math.Round((v.Float()-lo)/(hi-lo)*7))
		}
		row[c].Level = level
	}
}
