package kstats

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func sampleReport() *Report {
	s := Stats{}
	s.Add(1500)
	s.Add(20)
	return &Report{FromNS: 1, ToNS: 100,
		CPUUsage: CPUUsage{Threads: []ThreadUsage{{TID: 3, PID: 3, Comm: "sh", NS: 40, Percent: 40.4, Prios: []int32{20}}}},
		Syscalls: []SyscallRow{{Name: "read", Stats: s, Returns: map[string]int64{"success": 2}}},
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
