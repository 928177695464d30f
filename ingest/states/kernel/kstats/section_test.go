package kstats

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
)

func sampleReport() *Report {
	s := Stats{}
	s.Add(1500)
	s.Add(20)
	return &Report{FromNS: 1, ToNS: 100,
		CPUUsage: CPUUsage{Threads: []ThreadUsage{{TID: 3, PID: 3, Comm: "sh", NS: 40, Percent: 40.4, Prios: []int32{20}}}},
		Syscalls: []SyscallRow{{Name: "read", Stats: s, Returns: Outcomes{{Name: "success", N: 2}}}},
		Slowest:  Slowest{Syscalls: []Occurrence{{Name: "read", TID: 3, CPU: -1, StartNS: 5, DurationNS: 1500}}}}
}

// TestSectionRoundTrip: a report comes back deeply equal, with its top.
func TestSectionRoundTrip(t *testing.T) {
	rep := sampleReport()
	raw, err := Encode(rep, 7)
	if err != nil {
		t.Fatal(err)
	}
	got, top, err := Decode(bytes.NewReader(raw), int64(len(raw)))
	if err != nil || top != 7 {
		t.Fatalf("Decode: top %d, %v", top, err)
	}
	if !reflect.DeepEqual(got, rep) {
		t.Fatalf("got %+v\nwant %+v", got, rep)
	}
}

// TestSectionDamage: every changed byte, every cut and another version
// read as ErrCorrupt, never as a report.
func TestSectionDamage(t *testing.T) {
	raw, err := Encode(sampleReport(), 7)
	if err != nil {
		t.Fatal(err)
	}
	for i := range raw {
		bad := bytes.Clone(raw)
		bad[i] ^= 0x20
		if _, _, err := Decode(bytes.NewReader(bad), int64(len(bad))); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d changed: %v, want ErrCorrupt", i, err)
		}
	}
	for n := range len(raw) {
		if _, _, err := Decode(bytes.NewReader(raw[:n]), int64(n)); err == nil {
			t.Fatalf("cut at %d: no error", n)
		}
	}
	if _, _, err := Decode(bytes.NewReader(raw), MaxSection+1); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("oversized section: %v", err)
	}
}

// FuzzDecode: untrusted section bytes never panic.
func FuzzDecode(f *testing.F) {
	raw, _ := Encode(sampleReport(), 7)
	f.Add(raw)
	f.Fuzz(func(t *testing.T, b []byte) {
		Decode(bytes.NewReader(b), int64(len(b)))
	})
}

// TestMaxThreads: past MaxThreads the recorder stops, passes every change
// on, and reports nothing.
func TestMaxThreads(t *testing.T) {
	for _, max := range []int{0, 3} {
		h := core.NewMemHistory(0)
		r := NewRecorder(h, 0, 10)
		r.MaxThreads = max
		at := r.Attributes()
		cur := at.AddPath(core.AttrCPUs, "0", core.AttrCurrentThread)
		for tid := 1; tid <= 5; tid++ {
			k := at.AddPath(core.AttrThreads, strconv.Itoa(tid))
			if err := r.Modify(k, core.Time(tid), core.Int32(int32(core.ThreadRunUser))); err != nil {
				t.Fatal(err)
			}
			if err := r.Modify(cur, core.Time(tid), core.Int32(int32(tid))); err != nil {
				t.Fatal(err)
			}
		}
		rep := r.Report(10)
		if got := h.Value(cur); got != core.Int32(5) {
			t.Errorf("max %d: the sink has %v, want 5", max, got)
		}
		if max == 3 && rep != nil {
			t.Errorf("max 3: a report of %d threads", len(rep.CPUUsage.Threads))
		}
		if max == 0 && (rep == nil || len(rep.CPUUsage.Threads) != 5) {
			t.Errorf("max 0: %+v, want 5 threads", rep)
		}
	}
}
