package callstack

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
)

// analyzeTrace runs the call stack analysis (user-space mode) over a real
// trace and checks the tiling of every attribute.
func analyzeTrace(t *testing.T, dir string, opts ...Option) *core.MemHistory {
	t.Helper()
	src, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var h *core.MemHistory
	var a *Analysis
	var last core.Time
	for {
		ev, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			h = core.NewMemHistory(ev.Time)
			a = New(h, opts...)
		}
		if err := a.Handle(ev); err != nil {
			t.Fatal(err)
		}
		last = ev.Time
	}
	if h == nil {
		t.Fatal("no events")
	}
	if err := a.Finish(last); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(last); err != nil {
		t.Fatal(err)
	}
	start, _ := h.Bounds()
	coretest.CheckTiling(t, h.Intervals(), h.Attributes().Len(), start, last)
	return h
}

func valueAt(t *testing.T, h *core.MemHistory, path, at string) core.Value {
	t.Helper()
	ts, err := core.ParseTime(at, 0)
	if err != nil {
		t.Fatal(err)
	}
	k, ok := h.Attributes().Lookup(path)
	if !ok {
		return core.Null()
	}
	iv, _, err := h.Single(context.Background(), k, ts)
	if err != nil {
		t.Fatal(err)
	}
	return iv.Value
}

// glxgears built with -finstrument-functions, traced with
// liblttng-ust-cyg-profile. Expected stacks derived from
// `babeltrace2 --clock-seconds --no-delta cyg-profile/glxgears-cyg-profile`
// (thread vtid 16073, times 1378850463.xxx):
//
//	.596911581 func_entry 0x40472B (main)
//	.597697005 func_entry 0x403D60 (make_window)   .611478011 func_exit
//	.713652090 func_entry 0x404311 (query_vsync)
//	.713661983 func_entry 0x404244 (is_glx_extension_supported)
//	.713675131 func_exit 0x404244                 .736456636 func_exit 0x404311
//	.736463069 func_entry 0x403B14 (init)
//	.761882233 func_entry 0x401B23 (gear)         .798485974 func_exit 0x401B23
//
// Counting entries and exits over the whole trace, the stack reaches depth
// 5 and ends 3 deep.
func TestRealTraceCygProfile(t *testing.T) {
	dir := filepath.Join(coretest.SharedTraces(t), "ctf", "cyg-profile")
	syms, err := ReadSymbolsFile(filepath.Join(dir, "cyg-profile-mapping.txt"))
	if err != nil {
		t.Fatal(err)
	}
	h := analyzeTrace(t, filepath.Join(dir, "glxgears-cyg-profile"), WithSymbols(syms))
	const s = "1378850463."
	for _, c := range []struct {
		at, path string
		want     core.Value
	}{
		{s + "713665000", "Threads/16073/CallStack/1", core.Int64(0x40472B)},
		{s + "713665000", "Threads/16073/CallStack/2", core.Int64(0x404311)},
		{s + "713665000", "Threads/16073/CallStack/3", core.Int64(0x404244)},
		{s + "713665000", "Threads/16073/CallStack/4", core.Null()},
		{s + "713665000", "Threads/16073", core.String("main")},
		{s + "713665000", "Threads/16073/Exec_name", core.String("glxgears")},
		{s + "736460000", "Threads/16073/CallStack/2", core.Null()},
		{s + "761900000", "Threads/16073/CallStack/2", core.Int64(0x403B14)},
		{s + "761900000", "Threads/16073/CallStack/3", core.Int64(0x401B23)},
		{s + "798490000", "Threads/16073/CallStack/3", core.Null()},
	} {
		if got := valueAt(t, h, c.path, c.at); got != c.want {
			t.Errorf("%s at %s = %v, want %v", c.path, c.at, got, c.want)
		}
	}
	const end = "1378850474.207792548" // the last event
	if v := valueAt(t, h, "Threads/16073/CallStack/3", end); v.IsNull() {
		t.Error("CallStack/3 at the end is null, want a frame (3 are open at the end)")
	}
	if v := valueAt(t, h, "Threads/16073/CallStack/4", end); !v.IsNull() {
		t.Errorf("CallStack/4 at the end = %v, want null", v)
	}
	if _, ok := h.Attributes().Lookup("Threads/16073/CallStack/5"); !ok {
		t.Error("CallStack/5 missing: the stack reaches depth 5")
	}
	if _, ok := h.Attributes().Lookup("Threads/16073/CallStack/6"); ok {
		t.Error("CallStack/6 exists: the stack never goes deeper than 5")
	}

	// The "fast" variant records only addr on entry, nothing on exit
	// (vtid 29822; 1379361250.302733607 entry 0x40472B, .303175746 entry
	// 0x403D60, .314550524 exit).
	h = analyzeTrace(t, filepath.Join(dir, "glxgears-cyg-profile-fast"), WithKernel())
	if v := valueAt(t, h, "Threads/29822/CallStack/2", "1379361250.303200000"); v != core.Int64(0x403D60) {
		t.Errorf("fast: depth 2 = %v, want 0x403D60", v)
	}
	if v := valueAt(t, h, "Threads/29822/CallStack/2", "1379361250.314600000"); !v.IsNull() {
		t.Errorf("fast: depth 2 after the exit = %v, want null", v)
	}
	if v := valueAt(t, h, "Threads/29822", "1379361250.303200000"); !v.IsNull() {
		t.Errorf("with a kernel analysis the thread's own value is not ours: %v", v)
	}
}

// The mapping file beside the cyg-profile traces (in their parent
// directory) is found from the trace path and names main's address.
func TestRealTraceMappingBeside(t *testing.T) {
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "cyg-profile", "glxgears-cyg-profile-fast")
	r, warnings, err := LoadResolver(context.Background(), nil, ResolverOptions{TracePath: trace})
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if got := r.Label("", core.Int64(0x40472B)); got != "main" {
		t.Errorf("0x40472B = %q, want main", got)
	}
	if got := r.Label("", core.Int64(0x7F3CCB59DEA5)); got != "0x7f3ccb59dea5" {
		t.Errorf("a libc address far above the program = %q, want it hexadecimal", got)
	}
}

// debuginfo-test-app3 (LTTng-UST statedump and dlopen/dlclose of three
// processes, no call stacks): the 99 (vpid, baddr) pairs babeltrace2
// prints in bin_info and dlopen events become Binaries attributes; the
// binaries are not on this machine, so loading warns and names nothing.
func TestRealTraceStatedump(t *testing.T) {
	dir := filepath.Join(coretest.SharedTraces(t), "ctf", "debuginfo-test-app3")
	h := analyzeTrace(t, dir)
	keys := h.Attributes().Glob("Processes/*/Binaries/*")
	if len(keys) != 99 {
		t.Errorf("%d binaries, want 99", len(keys))
	}
	for path, want := range map[string]string{
		"Processes/3520/Binaries/0x400000":            "/usr/lib/x86_64-linux-gnu/indicator-transfer/indicator-transfer-service",
		"Processes/3520/Binaries/0x400000/Debug_link": "c605bcf38d068d77a6e0a02cede6a50c5750b5.debug",
		"Processes/7839/Binaries/0x7f4fc1d32000":      "/home/alexandre/src/lttng-project/lttng/trace-utils/dynamicLinking/libhello.so",
		"Processes/7839/Binaries/0x7f4fc3692000":      "", // dlclosed at .410035885, the last event
	} {
		if got := valueAt(t, h, path, "1462739105.410035885").Str(); got != want {
			t.Errorf("%s = %q, want %q", path, got, want)
		}
	}
	r, warnings, err := LoadResolver(context.Background(), h, ResolverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 {
		t.Error("no warning although the traced binaries are absent")
	}
	if got := r.Label("3520", core.Int64(0x400100)); got != "0x400100" {
		t.Errorf("address in an absent binary = %q, want hex", got)
	}
}
