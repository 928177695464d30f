package stats

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// interrupts measures hard IRQ and soft IRQ durations and soft IRQ
// raise-to-entry latency, summed over CPUs per IRQ number or vector.
func (q *query) interrupts(rep *Report) {
	hard, soft, raise := map[int64]*Stats{}, map[int64]*Stats{}, map[int64]*Stats{}
	slowIRQ, slowRaise := worst{n: q.top}, worst{n: q.top}
	add := func(m map[int64]*Stats, w *worst, n int64, name string, cpu int32, iv core.Interval) {
		s := m[n]
		if s == nil {
			s = &Stats{}
			m[n] = s
		}
		s.Add(iv.Duration())
		w.add(Occurrence{Name: name, TID: -1, CPU: cpu, StartNS: int64(iv.Start), DurationNS: int64(iv.Duration())})
	}
	for _, c := range q.cpus {
		for _, k := range c.irqs {
			for _, iv := range q.row(k.key) {
				if !iv.Value.IsNull() && q.closed(iv) {
					add(hard, &slowIRQ, k.n, "irq "+q.hardLabel(k.n), c.num, iv)
				}
			}
		}
		for _, k := range c.softs {
			r := q.row(k.key)
			for j, iv := range r {
				if iv.Value.IsNull() || !q.closed(iv) {
					continue
				}
				switch core.CPUStatus(iv.Value.Int()) {
				case core.CPUStatusSoftIRQ:
					add(soft, &slowIRQ, k.n, "softirq "+softName(k.n), c.num, iv)
				case core.CPUStatusSoftIRQRaised:
					if j+1 < len(r) && !r[j+1].Value.IsNull() && core.CPUStatus(r[j+1].Value.Int()) == core.CPUStatusSoftIRQ {
						add(raise, &slowRaise, k.n, "softirq "+softName(k.n), c.num, iv)
					}
				}
			}
		}
	}
	rep.IRQs = append(irqRows("hard", hard, q.hardName), irqRows("soft", soft, softName)...)
	rep.SoftRaise = irqRows("soft", raise, softName)
	rep.Slowest.IRQs, rep.Slowest.SoftRaise = slowIRQ.list, slowRaise.list
}

// irqRows lists per-number statistics by number.
func irqRows(kind string, m map[int64]*Stats, name func(int64) string) []IRQRow {
	out := make([]IRQRow, 0, len(m))
	for n, s := range m {
		out = append(out, IRQRow{Kind: kind, IRQ: n, Name: name(n), Stats: *s})
	}
	slices.SortFunc(out, func(a, b IRQRow) int { return cmp.Compare(a.IRQ, b.IRQ) })
	return out
}

// hardName names hard IRQ n by its handler (IRQ_names/<n>, the last name
// in the range), or by its number when the trace does not say.
func (q *query) hardName(n int64) string {
	if v := q.last(q.irqNames[n]); v.Kind() == core.KindString && v.Str() != "" {
		return v.Str()
	}
	return strconv.FormatInt(n, 10)
}

// hardLabel is "<n> <handler>" ("30 i915"), or "<n>" without a name.
func (q *query) hardLabel(n int64) string {
	return IRQRow{Kind: "hard", IRQ: n, Name: q.hardName(n)}.Label()
}
