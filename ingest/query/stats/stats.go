package stats

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

// worst keeps the n longest occurrences, longest first (ties: earliest
// first, so results do not depend on query order).
type worst struct {
	n    int
	list []Occurrence
}

func longer(a, b Occurrence) bool {
	if a.DurationNS != b.DurationNS {
		return a.DurationNS > b.DurationNS
	}
	return a.StartNS < b.StartNS
}

func (w *worst) add(o Occurrence) {
	if w.n <= 0 || len(w.list) == w.n && !longer(o, w.list[w.n-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(w.list, o, func(x, y Occurrence) int {
		if longer(x, y) {
			return -1
		}
		return 1
	})
	if len(w.list) == w.n {
		w.list = w.list[:w.n-1]
	}
	w.list = slices.Insert(w.list, i, o)
}
