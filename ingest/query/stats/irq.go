package stats

import (
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// interrupts measures hard IRQ and soft IRQ durations and soft IRQ
// raise-to-entry latency, summed over CPUs per IRQ number or vector.
func (q *query) interrupts(rep *Report) {
	hard, soft, raise := map[int64]*Stats{}, map[int64]*Stats{}, map[int64]*Stats{}
	slowIRQ, slowRaise := kstats.Worst{N: q.top}, kstats.Worst{N: q.top}
	for _, c := range q.cpus {
		// each CPU's durations are summed apart, then merged in CPU order:
		// the order the index build's whole-trace pass merges them in
		// (package kstats), so that both give the same floating point
		cpuHard, cpuSoft, cpuRaise := map[int64]*Stats{}, map[int64]*Stats{}, map[int64]*Stats{}
		for _, k := range c.irqs {
			for j, iv := range q.row(k.key) {
				if q.cancelledWithin(j) {
					return // Compute returns the context's error
				}
				if !iv.Value.IsNull() && q.closed(iv) {
					kstats.AddIRQ(cpuHard, &slowIRQ, kstats.KindHard, k.n, c.num, iv)
				}
			}
		}
		for _, k := range c.softs {
			r := q.row(k.key)
			for j, iv := range r {
				if q.cancelledWithin(j) {
					return
				}
				if iv.Value.IsNull() || !q.closed(iv) {
					continue
				}
				switch core.CPUStatus(iv.Value.Int()) {
				case core.CPUStatusSoftIRQ:
					kstats.AddIRQ(cpuSoft, &slowIRQ, kstats.KindSoft, k.n, c.num, iv)
				case core.CPUStatusSoftIRQRaised:
					if j+1 < len(r) && !r[j+1].Value.IsNull() && core.CPUStatus(r[j+1].Value.Int()) == core.CPUStatusSoftIRQ {
						kstats.AddIRQ(cpuRaise, &slowRaise, kstats.KindSoft, k.n, c.num, iv)
					}
				}
			}
		}
		kstats.MergeIRQs(hard, cpuHard)
		kstats.MergeIRQs(soft, cpuSoft)
		kstats.MergeIRQs(raise, cpuRaise)
	}
	rep.IRQs = append(kstats.IRQRows(kstats.KindHard, hard, q.hardName), kstats.IRQRows(kstats.KindSoft, soft, softName)...)
	rep.SoftRaise = kstats.IRQRows(kstats.KindSoft, raise, softName)
	name := func(o Occurrence, kind int8, n int64) string { return kstats.IRQOccurrenceName(kind, n, q.hardName) }
	rep.Slowest.IRQs, rep.Slowest.SoftRaise = slowIRQ.List(name), slowRaise.List(name)
}

// hardName names hard IRQ n by its handler (IRQ_names/<n>, the last name
// in the range), or by its number when the trace does not say.
func (q *query) hardName(n int64) string {
	return kstats.HardName(n, q.last(q.irqNames[n]))
}
