package trace

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
)

// tableFixture is a small kernel-like trace: events on 2 CPUs, a history
// saying which thread runs where, and UST-like events carrying their own
// thread context.
type tableFixture struct {
	events  []core.Event
	hist    *core.MemHistory
	table   *Table
	readers atomic.Int64 // sources opened and not yet closed
}

// countedSource counts its fixture's open readers, so tests see that the
// filter workers are done (and closed theirs) when Filter returns.
type countedSource struct {
	*coretest.SliceSource
	open *atomic.Int64
}

func (s countedSource) Close() error {
	s.open.Add(-1)
	return s.SliceSource.Close()
}

var (
	kclass = &core.EventClass{ID: 0, Name: "sched_switch", Fields: []string{"prev_tid", "next_tid"}}
	uclass = &core.EventClass{ID: 1, Name: "app:tick", Fields: []string{"context.vtid", "context.procname", "n"}}
)

func newTableFixture(t testing.TB, r interface{ IntN(int) int }, n, every int) *tableFixture {
	t.Helper()
	fx := &tableFixture{hist: core.NewMemHistory(0)}
	tree := fx.hist.Attributes()
	cur := []core.Key{tree.AddPath("CPUs", "0", "Current_thread"), tree.AddPath("CPUs", "1", "Current_thread")}
	names := map[int64]core.Key{}
	for tid := int64(1); tid <= 5; tid++ {
		names[tid] = tree.AddPath("Threads", fmt.Sprint(tid), "Exec_name")
	}
	now := core.Time(0)
	running := []int64{0, 0}
	for i := range n {
		now += core.Time(1 + r.IntN(10))
		cpu := int32(r.IntN(2))
		if r.IntN(4) == 0 {
			tid := int64(1 + r.IntN(5))
			fx.events = append(fx.events, core.Event{Time: now, CPU: cpu, Class: uclass, Fields: []core.Field{
				{Kind: core.FieldInt, Int: 100 + tid}, {Kind: core.FieldString, Bytes: []byte("app")}, {Kind: core.FieldInt, Int: int64(i)}}})
			continue
		}
		next := int64(1 + r.IntN(5))
		fx.events = append(fx.events, core.Event{Time: now, CPU: cpu, Class: kclass, Fields: []core.Field{
			{Kind: core.FieldInt, Int: running[cpu]}, {Kind: core.FieldInt, Int: next}}})
		running[cpu] = next
		must(t, fx.hist.Modify(cur[cpu], now, core.Int32(int32(next))))
		must(t, fx.hist.Modify(names[next], now, core.String(fmt.Sprintf("proc%d", next))))
	}
	must(t, fx.hist.Close(now+1))

	w, err := eventindex.NewWriter(t.TempDir(), "", every)
	must(t, err)
	defer w.Close()
	src := coretest.NewSliceSource(core.SourceInfo{}, fx.events)
	for {
		if _, err := w.Next(src); err == io.EOF {
			break
		} else {
			must(t, err)
		}
	}
	size, rd, err := w.Finish()
	must(t, err)
	raw, err := io.ReadAll(rd)
	must(t, err)
	x, err := eventindex.Open(strings.NewReader(string(raw)), size)
	must(t, err)
	fx.table = NewTable(x, func() (core.Source, error) {
		fx.readers.Add(1)
		return countedSource{coretest.NewSliceSource(core.SourceInfo{}, fx.events), &fx.readers}, nil
	}, fx.hist)
	return fx
}

// want computes row i the slow way: the thread from the event's context,
// else the CPU's current thread in the history, and its exec name.
func (fx *tableFixture) want(t testing.TB, i int) core.EventRow {
	ev := fx.events[i]
	src := coretest.NewSliceSource(core.SourceInfo{}, nil)
	row := core.EventRow{Rank: int64(i), Time: ev.Time, CPU: ev.CPU, Event: ev.Class.Name,
		Contents: string(src.AppendContents(nil, &ev))}
	ctx := context.Background()
	if ev.Class == uclass {
		row.TID, row.Process = fmt.Sprint(ev.Fields[0].Int), string(ev.Fields[1].Bytes)
		return row
	}
	k, _ := fx.hist.Attributes().Lookup(fmt.Sprintf("CPUs/%d/Current_thread", ev.CPU))
	iv, _, err := fx.hist.Single(ctx, k, ev.Time-1) // the thread running just before the event
	if err != nil {                                 // before the trace start: unknown
		return row
	}
	if iv.Value.IsNull() {
		return row
	}
	row.TID = fmt.Sprint(iv.Value.Int())
	k, _ = fx.hist.Attributes().Lookup(fmt.Sprintf("Threads/%s/Exec_name", row.TID))
	iv, _, err = fx.hist.Single(ctx, k, ev.Time)
	must(t, err)
	row.Process = iv.Value.Str()
	return row
}

func TestTableRowsAndRankAt(t *testing.T) {
	r := coretest.Rand(t)
	fx := newTableFixture(t, r, 700, 1+r.IntN(40))
	ctx := context.Background()
	for range 30 {
		// A run of consecutive ranks and a few scattered ones, ascending.
		first := int64(r.IntN(len(fx.events)))
		var ranks []int64
		for k := first; k < min(first+int64(1+r.IntN(60)), int64(len(fx.events))); k++ {
			ranks = append(ranks, k)
		}
		for k := ranks[len(ranks)-1] + 1; k < int64(len(fx.events)); k += int64(1 + r.IntN(200)) {
			ranks = append(ranks, k)
		}
		rows, err := fx.table.Rows(ctx, ranks)
		must(t, err)
		if len(rows) != len(ranks) {
			t.Fatalf("%d rows for %d ranks", len(rows), len(ranks))
		}
		for i, row := range rows {
			if want := fx.want(t, int(ranks[i])); row != want {
				t.Fatalf("row %d = %+v\nwant %+v", ranks[i], row, want)
			}
		}
	}
	if _, err := fx.table.Rows(ctx, []int64{int64(len(fx.events))}); err == nil {
		t.Error("a rank past the end is not an error")
	}
	for range 30 {
		ts := fx.events[r.IntN(len(fx.events))].Time + core.Time(r.IntN(3)-1)
		got, err := fx.table.RankAt(ctx, ts)
		must(t, err)
		want := slices.IndexFunc(fx.events, func(e core.Event) bool { return e.Time >= ts })
		if want < 0 { // after the last event: RankAt returns Len()
			want = len(fx.events)
		}
		if got != int64(want) {
			t.Fatalf("RankAt(%d) = %d, want %d", ts, got, want)
		}
	}
}

func TestTableFilterMatchesBruteForce(t *testing.T) {
	r := coretest.Rand(t)
	fx := newTableFixture(t, r, 3000, 1+r.IntN(20))
	filters := []core.EventFilter{
		{core.ColEvent: regexp.MustCompile(`^app:`)},
		{core.ColContents: regexp.MustCompile(`next_tid = [23]\b`)},
		{core.ColProcess: regexp.MustCompile(`proc4`), core.ColCPU: regexp.MustCompile(`1`)},
		{core.ColTID: regexp.MustCompile(`^10[12]$`)},
		{core.ColTime: regexp.MustCompile(`7$`)},
	}
	for _, f := range filters {
		var want []int64
		for i := range fx.events {
			row := fx.want(t, i)
			if f.Match(&row) {
				want = append(want, int64(i))
			}
		}
		var got []int64
		var last int64
		err := fx.table.Filter(context.Background(), f, func(p core.FilterProgress) bool {
			if p.Done < last || p.Total != int64(len(fx.events)) {
				t.Errorf("progress went from %d to %d of %d", last, p.Done, p.Total)
			}
			last = p.Done
			got = append(got, p.Matches...)
			return true
		})
		must(t, err)
		if last != int64(len(fx.events)) {
			t.Errorf("filter %v: ended at %d of %d", f, last, len(fx.events))
		}
		if !slices.Equal(got, want) {
			t.Errorf("filter %v: %d matches, want %d\ngot  %v\nwant %v", f, len(got), len(want), head(got), head(want))
		}
	}
}

func TestTableFilterStopsAndCancels(t *testing.T) {
	r := coretest.Rand(t)
	fx := newTableFixture(t, r, 5000, 4)
	f := core.EventFilter{core.ColEvent: regexp.MustCompile(`.`)}
	calls := 0
	must(t, fx.table.Filter(context.Background(), f, func(core.FilterProgress) bool { calls++; return false }))
	if calls != 1 {
		t.Errorf("fn called %d times after returning false", calls)
	}
	if n := fx.readers.Load(); n != 0 {
		t.Errorf("%d filter readers still open after a stopped filter returned", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := fx.table.Filter(ctx, f, func(core.FilterProgress) bool { return true }); err != context.Canceled {
		t.Errorf("cancelled filter returned %v", err)
	}
	// Cancelled while the workers are scanning.
	ctx, cancel = context.WithCancel(context.Background())
	err := fx.table.Filter(ctx, f, func(core.FilterProgress) bool { cancel(); return true })
	if err != nil && err != context.Canceled {
		t.Errorf("filter cancelled from fn returned %v", err)
	}
	if n := fx.readers.Load(); n != 0 {
		t.Errorf("%d filter readers still open after a cancelled filter returned", n)
	}
	if err := fx.table.Filter(context.Background(), core.EventFilter{}, nil); err != ErrEmptyFilter {
		t.Errorf("empty filter: %v", err)
	}
}

func head(s []int64) []int64 { return s[:min(len(s), 20)] }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestScanRowTextMatchesEventRow holds the filter's allocation-free text
// to the table's: a filter must match what the user sees.
func TestScanRowTextMatchesEventRow(t *testing.T) {
	for _, sr := range []scanRow{
		{rank: 3, time: 1412670961_211260539, cpu: 2, event: "sched_switch", tid: 496, proc: []byte("lttng"), contents: []byte("{ a = 1 }")},
		{rank: 0, time: 5, cpu: -1, event: "x", tid: -1},
		{rank: 9, time: 0, cpu: 0, event: "y", tid: 0, proc: []byte("swapper/0")},
	} {
		row := sr.eventRow()
		for c := core.EventColumn(0); c < core.NumColumns; c++ {
			if got, want := string(sr.appendText(nil, c)), row.Text(c); got != want {
				t.Errorf("%v column %v: scan text %q, table text %q", sr, c, got, want)
			}
		}
	}
}
