package kstats

import (
	"math"
	"math/bits"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// HistBuckets is the number of log2 histogram buckets: bucket i counts
// durations d with bits.Len64(d) == i, i.e. 2^(i-1) <= d < 2^i ns.
const HistBuckets = 64

// Stats summarises durations in ns: JSON fields as the stats command
// documents them.
type Stats struct {
	Count   int64   `json:"count"`
	MinNS   int64   `json:"min_ns"`
	MeanNS  float64 `json:"mean_ns"`
	MaxNS   int64   `json:"max_ns"`
	StdevNS float64 `json:"stdev_ns"`
	TotalNS int64   `json:"total_ns"`
	// Histogram[i] counts the durations in [2^(i-1), 2^i) ns; trailing
	// empty buckets are cut.
	Histogram []int64 `json:"histogram_log2,omitempty"`

	m2 float64 // sum of squared deviations from the mean (Welford)
}

// Add records one duration.
func (s *Stats) Add(d core.Time) {
	ns := int64(d)
	if s.Count == 0 || ns < s.MinNS {
		s.MinNS = ns
	}
	if s.Count == 0 || ns > s.MaxNS {
		s.MaxNS = ns
	}
	s.Count++
	s.TotalNS += ns
	delta := float64(ns) - s.MeanNS
	s.MeanNS += delta / float64(s.Count)
	s.m2 += delta * (float64(ns) - s.MeanNS)
	b := bits.Len64(uint64(max(ns, 0)))
	if len(s.Histogram) <= b {
		s.Histogram = append(s.Histogram, make([]int64, b+1-len(s.Histogram))...)
	}
	s.Histogram[b]++
	s.StdevNS = s.stdev()
}

// Merge adds o's durations to s (Chan et al.'s parallel variance).
func (s *Stats) Merge(o *Stats) {
	if o.Count == 0 {
		return
	}
	if s.Count == 0 {
		*s = *o
		s.Histogram = slices.Clone(o.Histogram)
		return
	}
	n := float64(s.Count + o.Count)
	delta := o.MeanNS - s.MeanNS
	s.m2 += o.m2 + delta*delta*float64(s.Count)*float64(o.Count)/n
	s.MeanNS += delta * float64(o.Count) / n
	s.Count += o.Count
	s.TotalNS += o.TotalNS
	s.MinNS = min(s.MinNS, o.MinNS)
	s.MaxNS = max(s.MaxNS, o.MaxNS)
	if len(s.Histogram) < len(o.Histogram) {
		s.Histogram = append(s.Histogram, make([]int64, len(o.Histogram)-len(s.Histogram))...)
	}
	for i, c := range o.Histogram {
		s.Histogram[i] += c
	}
	s.StdevNS = s.stdev()
}

// stdev is the sample standard deviation (as lttng-analyses' statistics
// module computes it), 0 below two values.
func (s *Stats) stdev() float64 {
	if s.Count < 2 {
		return 0
	}
	return math.Sqrt(s.m2 / float64(s.Count-1))
}

// Occurrence is one timed thing of an N-worst list.
type Occurrence struct {
	Name       string `json:"name"`
	TID        int32  `json:"tid"` // -1 when unknown (an interrupt's)
	CPU        int32  `json:"cpu"` // -1 when unknown
	StartNS    int64  `json:"start_ns"`
	DurationNS int64  `json:"duration_ns"`
}

// Worst keeps the N longest occurrences, longest first. The order is
// total (duration, then start, thread, CPU and the caller's kind and
// number), so the list does not depend on the order occurrences are added
// in: a whole-trace pass in time order and stats.Compute's pass thread by
// thread keep the same N.
type Worst struct {
	N    int
	list []ranked
}

// ranked is an occurrence with the caller's tie-breakers.
type ranked struct {
	Occurrence
	kind int8
	n    int64
}

func longer(a, b *ranked) bool {
	if a.DurationNS != b.DurationNS {
		return a.DurationNS > b.DurationNS
	}
	if a.StartNS != b.StartNS {
		return a.StartNS < b.StartNS
	}
	if a.TID != b.TID {
		return a.TID < b.TID
	}
	if a.CPU != b.CPU {
		return a.CPU < b.CPU
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.n < b.n
}

// Add records o; kind and n break ties between occurrences of one thread
// and CPU at one instant (an interrupt's kind and number).
func (w *Worst) Add(o Occurrence, kind int8, n int64) {
	r := ranked{o, kind, n}
	if w.N <= 0 || len(w.list) == w.N && !longer(&r, &w.list[w.N-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(w.list, r, func(x, y ranked) int {
		if longer(&x, &y) {
			return -1
		}
		return 1
	})
	if len(w.list) == w.N {
		w.list = w.list[:w.N-1]
	}
	w.list = slices.Insert(w.list, i, r)
}

// List returns the occurrences, longest first (nil when none), named by
// name when it is not nil (from the occurrence, its kind and number).
func (w *Worst) List(name func(o Occurrence, kind int8, n int64) string) []Occurrence {
	if len(w.list) == 0 {
		return nil
	}
	out := make([]Occurrence, len(w.list))
	for i, r := range w.list {
		out[i] = r.Occurrence
		if name != nil {
			out[i].Name = name(r.Occurrence, r.kind, r.n)
		}
	}
	return out
}
