package trace

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

func TestDensityWithinOneCheckpoint(t *testing.T) {
	r := coretest.Rand(t)
	every := 1 + r.IntN(30)
	fx := newTableFixture(t, r, 2000, every)
	from, to := fx.events[0].Time, fx.events[len(fx.events)-1].Time
	for _, cols := range []int{1, 7, 80, 200} {
		d, err := fx.table.Density(context.Background(), from, to, cols)
		must(t, err)
		var sum int64
		for i, n := range d {
			sum += n
			lo := from + core.Time(float64(to-from+1)*float64(i)/float64(cols))
			hi := from + core.Time(float64(to-from+1)*float64(i+1)/float64(cols))
			if i == cols-1 {
				hi = to + 1
			}
			var exact int64
			for _, ev := range fx.events {
				if ev.Time >= lo && ev.Time < hi {
					exact++
				}
			}
			if diff := n - exact; diff > int64(every) || diff < -int64(every) {
				t.Errorf("%d columns, column %d: %d events, exact %d (K = %d)", cols, i, n, exact, every)
			}
		}
		if sum != int64(len(fx.events)) {
			t.Errorf("%d columns sum to %d, want %d", cols, sum, len(fx.events))
		}
	}
}

func TestCountByType(t *testing.T) {
	r := coretest.Rand(t)
	fx := newTableFixture(t, r, 3000, 1+r.IntN(50))
	i0, i1 := r.IntN(1500), 1500+r.IntN(1500)
	from, to := fx.events[i0].Time, fx.events[i1].Time
	want := map[string]int64{}
	for _, ev := range fx.events {
		if ev.Time >= from && ev.Time <= to {
			want[ev.Class.Name]++
		}
	}
	var last int64
	got, err := fx.table.CountByType(context.Background(), from, to, func(done, total int64) bool { last = done; return true })
	must(t, err)
	if len(got) != len(want) || got["sched_switch"] != want["sched_switch"] || got["app:tick"] != want["app:tick"] {
		t.Errorf("counts %v, want %v", got, want)
	}
	if last == 0 {
		t.Error("no final progress report")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fx.table.CountByType(ctx, from, to, nil); err != context.Canceled && len(fx.events) > countReport {
		t.Errorf("cancelled count: %v", err)
	}
}
