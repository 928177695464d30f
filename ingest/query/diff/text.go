package diff

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// WriteText prints the result as tables, one line per row: base, new,
// delta and ratio, largest change first.
func (r *Result) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "base: %s\nnew:  %s\n", r.Base, r.New)
	times := func(title string, rows []TimeRow) {
		fmt.Fprintf(b, "\n%s\n%12s %12s %12s %7s  %s\n", title, "base", "new", "delta", "ratio", "name")
		for _, row := range rows {
			fmt.Fprintf(b, "%12s %12s %12s %7s  %s\n", dur(row.BaseNS), dur(row.NewNS), SignedDuration(row.DeltaNS), ratio(row.Ratio), row.Name)
		}
		if len(rows) == 0 {
			b.WriteString("  (none on either side)\n")
		}
	}
	times("CPU time per process (its place in the process tree)", r.Processes)
	times("CPU time per thread (process place | comm #rank)", r.Threads)
	fmt.Fprintf(b, "\nSystem calls\n%9s %9s %12s %12s %12s %12s %12s  %s\n", "base n", "new n", "base total", "new total", "delta", "base max", "new max", "name")
	for _, s := range r.Syscalls {
		fmt.Fprintf(b, "%9d %9d %12s %12s %12s %12s %12s  %s\n", s.Base.Count, s.New.Count, dur(s.Base.TotalNS), dur(s.New.TotalNS),
			SignedDuration(s.DeltaTotalNS), dur(s.Base.MaxNS), dur(s.New.MaxNS), s.Name)
	}
	times("Wake-up latency per thread (runnable before running)", r.SchedLatency)
	times("Interrupt time", r.IRQs)
	if r.CallTree != nil {
		title, num, sign := "Call tree, self time per call path", dur, SignedDuration
		if r.CallTreeUnit == UnitSamples {
			title, num, sign = "Call tree, self samples per call path (perf.data samples, not time)", count, SignedCount
		}
		fmt.Fprintf(b, "\n%s\n%12s %12s %12s  %s\n", title, "base", "new", "delta", "path")
		for _, p := range r.CallTree {
			fmt.Fprintf(b, "%12s %12s %12s  %s\n", num(p.BaseSelf), num(p.NewSelf), sign(p.DeltaSelf), strings.ReplaceAll(p.Path, ";", " > "))
		}
	}
	return b.Flush()
}

func dur(ns int64) string { return core.FormatDuration(core.Time(ns)) }

// SignedDuration is a time's delta with its sign: "+" grown, "-" shrunk.
func SignedDuration(ns int64) string {
	switch {
	case ns > 0:
		return "+" + dur(ns)
	case ns < 0:
		return "-" + dur(-ns)
	}
	return "0"
}

func count(n int64) string { return strconv.FormatInt(n, 10) }

// SignedCount is a count's delta with its sign.
func SignedCount(n int64) string {
	if n > 0 {
		return "+" + count(n)
	}
	return count(n)
}

func ratio(r *float64) string {
	if r == nil {
		return "new"
	}
	return fmt.Sprintf("%.2fx", *r)
}
