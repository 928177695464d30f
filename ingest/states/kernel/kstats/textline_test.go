package kstats

import (
	"fmt"
	"math"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestTextLinesAsFmt (property): the text lines appended field by field
// are byte for byte what fmt prints with the verbs they replace, for
// random values: names of multi-byte runes, longer than their column,
// empty; negative, huge, infinite and NaN numbers; counts below two.
func TestTextLinesAsFmt(t *testing.T) {
	rng := coretest.Rand(t)
	names := []string{"", "sh", "kworker/u8:1-events_unbound", "événement-très-long-nom-de-tâche-ü", "日本語のスレッド", "a name of more than thirty-two bytes"}
	floats := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return math.Inf(1)
		case 1:
			return math.Inf(-1)
		case 2:
			return math.NaN()
		case 3:
			return math.Copysign(0, -1)
		case 4:
			return rng.NormFloat64() * 1e15
		}
		return rng.Float64() * 1e4
	}
	ints := func() int64 {
		switch rng.IntN(5) {
		case 0:
			return rng.Int64() - math.MaxInt64/2
		case 1: // about the bound of micros' integer digits
			return (rng.Int64N(1<<53) - 1<<52) | 1<<50
		}
		return rng.Int64N(1e9) - 1e3
	}
	for round := range 20_000 {
		s := Stats{Count: ints() % 5, MinNS: ints(), MeanNS: floats(), MaxNS: ints(), StdevNS: floats(), TotalNS: ints()}
		name := names[rng.IntN(len(names))]
		stdev := "?"
		if s.Count > 1 {
			stdev = fmt.Sprintf("%.3f", s.StdevNS/1e3)
		}
		want := fmt.Sprintf("%-32s %8d %12.3f %12.3f %12.3f %12s %14.3f\n", name, s.Count,
			float64(s.MinNS)/1e3, s.MeanNS/1e3, float64(s.MaxNS)/1e3, stdev, float64(s.TotalNS)/1e3)
		if got := string(appendStatsLine(nil, name, &s)); got != want {
			t.Fatalf("round %d: statsLine\n%q, fmt gives\n%q", round, got, want)
		}
		pid, tid := int32(rng.IntN(1<<22))-1, int32(rng.Int32())
		wantWho := fmt.Sprintf("%s (%d, TID: %d)", name, pid, tid)
		if pid < 0 {
			wantWho = fmt.Sprintf("%s (TID: %d)", name, tid)
		}
		if got := string(appendWho(nil, name, pid, tid)); got != wantWho {
			t.Fatalf("round %d: who %q, fmt gives %q", round, got, wantWho)
		}
		u := ThreadUsage{TID: tid, PID: pid, Comm: name, NS: ints(), Percent: floats(), Migrations: ints()}
		for range rng.IntN(3) {
			u.Prios = append(u.Prios, int32(rng.IntN(140))-20)
		}
		wantUsage := fmt.Sprintf("%-32s %8.2f %8.3f %10d  %v\n", wantWho, u.Percent, float64(u.NS)/1e6, u.Migrations, u.Prios)
		if got := string(appendUsageLine(nil, &u)); got != wantUsage {
			t.Fatalf("round %d: usage line\n%q, fmt gives\n%q", round, got, wantUsage)
		}
	}
}
