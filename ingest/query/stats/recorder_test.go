package stats

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

var recorderSeeds = flag.Int("recorder-seeds", 200, "random histories TestRecorderProperty compares")

// randomChanges writes random kernel-shaped state changes, many at the
// same instants (changes overwritten at one instant, back to the old
// value, null resets, runs overlapping on two CPUs: what a trace cannot
// be relied on not to give).
func randomChanges(rng *rand.Rand) (changes []change, end core.Time) {
	threads, cpus := 1+rng.IntN(6), 1+rng.IntN(3)
	end = core.Time(20 + rng.IntN(200))
	statuses := []core.ThreadStatus{core.ThreadUnknown, core.ThreadWaitBlocked, core.ThreadRunUser, core.ThreadRunSyscall,
		core.ThreadInterrupted, core.ThreadWaitCPU, core.ThreadWaitCPU, core.ThreadWaitUnknown}
	names := []string{"read", "write", "clone", "exit_group", "openat"}
	pick := func(null int, v func() core.Value) core.Value {
		if rng.IntN(null) == 0 {
			return core.Null()
		}
		return v()
	}
	for range 20 + rng.IntN(400) {
		t := core.Time(rng.IntN(int(end) + 1))
		tid := strconv.Itoa(1 + rng.IntN(threads))
		if rng.IntN(40) == 0 { // an idle thread's name, no thread id
			tid = "0_" + strconv.Itoa(rng.IntN(cpus))
		}
		cpu := strconv.Itoa(rng.IntN(cpus))
		if rng.IntN(60) == 0 {
			cpu = "x"
		}
		var c change
		switch rng.IntN(11) {
		case 0, 1, 2:
			c = change{"Threads/" + tid, t, pick(12, func() core.Value { return core.Int32(int32(statuses[rng.IntN(len(statuses))])) })}
		case 3:
			c = change{"Threads/" + tid + "/System_call", t, pick(2, func() core.Value { return core.String(names[rng.IntN(len(names))]) })}
		case 4:
			c = change{"Threads/" + tid + "/System_call_error", t, pick(2, func() core.Value { return core.Int64(-int64(1 + rng.IntN(3))) })}
		case 5:
			field := []string{"Exec_name", "PID", "PPID", "Prio"}[rng.IntN(4)]
			v := core.Int32(int32(1 + rng.IntN(threads)))
			if field == "Exec_name" {
				v = core.String([]string{"sh", "ls", "make"}[rng.IntN(3)])
			}
			c = change{"Threads/" + tid + "/" + field, t, pick(6, func() core.Value { return v })}
		case 6, 7:
			// 0: the idle thread; threads+1: none of Threads
			c = change{"CPUs/" + cpu + "/Current_thread", t, pick(8, func() core.Value { return core.Int32(int32(rng.IntN(threads + 2))) })}
		case 8:
			c = change{"CPUs/" + cpu + "/IRQs/" + strconv.Itoa(rng.IntN(3)), t, pick(2, func() core.Value { return core.Int32(int32(core.CPUStatusIRQ)) })}
		case 9:
			c = change{"CPUs/" + cpu + "/Soft_IRQs/" + strconv.Itoa(rng.IntN(3)), t, pick(3, func() core.Value {
				return core.Int32(int32([]core.CPUStatus{core.CPUStatusSoftIRQ, core.CPUStatusSoftIRQRaised}[rng.IntN(2)]))
			})}
		case 10:
			c = change{"IRQ_names/" + strconv.Itoa(rng.IntN(3)), t, pick(4, func() core.Value { return core.String([]string{"", "eth0", "i915"}[rng.IntN(3)]) })}
		}
		changes = append(changes, c)
	}
	slices.SortStableFunc(changes, func(a, b change) int { return int(a.t - b.t) })
	return changes, end
}

// TestRecorderProperty: over random histories, the recorder's report is
// Compute's full scan, deeply, and the section its Encode writes (on two
// goroutines) is that of the report, whatever the length of the batches
// summed on other goroutines; a failing seed is printed.
func TestRecorderProperty(t *testing.T) {
	for seed := uint64(1); seed <= uint64(*recorderSeeds); seed++ {
		rng := rand.New(rand.NewPCG(seed, 33))
		changes, end := randomChanges(rng)
		h, h2 := core.NewMemHistory(0), core.NewMemHistory(0)
		r, r2 := kstats.NewRecorder(h, 0, kstats.StoredTop), kstats.NewRecorder(h2, 0, kstats.StoredTop)
		r.Batch, r2.Batch = 1+rng.IntN(32), 1+rng.IntN(32) // batches summed on other goroutines
		for _, c := range changes {
			if err := r.Modify(h.Attributes().AddPath(splitPath(c.path)...), c.t, c.v); err != nil {
				t.Fatal(err)
			}
			if err := r2.Modify(h2.Attributes().AddPath(splitPath(c.path)...), c.t, c.v); err != nil {
				t.Fatal(err)
			}
		}
		got := r.Report(end)
		section, err := r2.Encode(end, kstats.StoredTop)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := kstats.Encode(got, kstats.StoredTop); !bytes.Equal(section, want) {
			t.Fatalf("seed %d: the recorder's Encode differs from Encode of its report", seed)
		}
		if err := h.Close(end); err != nil {
			t.Fatal(err)
		}
		want, err := Compute(context.Background(), h, Options{Top: kstats.StoredTop, Scan: true})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.MarshalIndent(got, "", " ")
		b, _ := json.MarshalIndent(want, "", " ")
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d (%d changes): the recorder's report differs from the scan's:\n%s", seed, len(changes), firstDiff(a, b))
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: same JSON, other values (variance accumulators)", seed)
		}
	}
}
