package callstack

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
)

var (
	binInfo   = &core.EventClass{ID: 8, Name: "lttng_ust_statedump:bin_info", Fields: []string{"context.vpid", "baddr", "memsz", "path", "is_pic"}}
	debugLink = &core.EventClass{ID: 9, Name: "lttng_ust_statedump:debug_link", Fields: []string{"context.vpid", "baddr", "crc", "filename"}}
	dlclose   = &core.EventClass{ID: 10, Name: "lttng_ust_dl:dlclose", Fields: []string{"context.vpid", "baddr"}}
)

func str(s string) core.Field { return core.Field{Kind: core.FieldString, Bytes: []byte(s)} }

func ptr(v uint64) core.Field { return core.Field{Kind: core.FieldUint, Int: int64(v)} }

// nmFunctions lists the code symbols of an ELF file as nm prints them.
func nmFunctions(t *testing.T, path string) map[uint64]string {
	t.Helper()
	if _, err := exec.LookPath("nm"); err != nil {
		t.Skip("nm not installed (binutils): cannot compare symbol resolution with it")
	}
	out, err := exec.Command("nm", path).Output()
	if err != nil {
		t.Fatalf("nm %s: %v", path, err)
	}
	syms := map[uint64]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || (f[1] != "T" && f[1] != "t") {
			continue
		}
		addr, err := strconv.ParseUint(f[0], 16, 64)
		if err == nil && addr != 0 {
			if _, dup := syms[addr]; !dup {
				syms[addr] = f[2]
			}
		}
	}
	return syms
}

// buildProgram compiles a small C program with gcc, PIE, and splits its
// symbols into a separate debug file (binutils), as distributions do.
func buildProgram(t *testing.T) (exe, debug string) {
	t.Helper()
	for _, tool := range []string{"gcc", "nm", "strip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (gcc, binutils): cannot build an ELF binary to compare with nm", tool)
		}
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "prog.c")
	var code strings.Builder
	for i := range 40 {
		fmt.Fprintf(&code, "int f%d(int x) { return x * %d + 1; }\n", i, i+2)
	}
	code.WriteString("static int helper(int x) { return f1(x) + f2(x); }\nint main(void) { return helper(3) > 0 ? 0 : 1; }\n")
	if err := os.WriteFile(src, []byte(code.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, debug = filepath.Join(dir, "prog"), filepath.Join(dir, "prog.debug")
	for _, args := range [][]string{
		{"gcc", "-O0", "-fPIE", "-pie", "-o", exe, src},
		{"cp", exe, debug},
		{"strip", exe},
	} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	return exe, debug
}

// A stripped PIE binary "mapped" by process 10, whose symbols are in the
// separate file its debug link names, resolves every function start to
// the name nm gives (or an alias at the same address) and addresses
// inside to name+offset; process 11, which mapped nothing, keeps
// hexadecimal addresses; a dlclose nulls the binary's state.
func TestResolverELFAgainstNm(t *testing.T) {
	exe, debug := buildProgram(t)
	want := nmFunctions(t, debug)
	if s, _, err := readELFSymbols(exe); err == nil && slices.Contains(s.names, "helper") {
		t.Fatal("strip left the symbol table: the debug link would not be tested")
	}
	_, load, err := readELFSymbols(debug)
	if err != nil {
		t.Fatal(err)
	}
	const base = 0x7f0000000000
	events := []core.Event{
		{Time: 1, Class: binInfo, Fields: []core.Field{num(10), ptr(base), ptr(1 << 20), str(exe), num(1)}},
		{Time: 2, Class: debugLink, Fields: []core.Field{num(10), ptr(base), num(0), str(filepath.Base(debug))}},
		{Time: 3, Class: binInfo, Fields: []core.Field{num(12), ptr(base), ptr(1 << 20), str(exe), num(1)}},
		{Time: 4, Class: debugLink, Fields: []core.Field{num(12), ptr(base), num(0), str(filepath.Base(debug))}},
		{Time: 5, Class: dlclose, Fields: []core.Field{num(12), ptr(base)}},
	}
	h := run(t, events, 10)
	if got := states(h, "Processes/10/Binaries/0x7f0000000000/Debug_link"); got != "[0,1] null [2,10] prog.debug" {
		t.Errorf("debug link state: %s", got)
	}
	if got := states(h, "Processes/12/Binaries/0x7f0000000000"); got != "[0,2] null [3,4] "+exe+" [5,10] null" {
		t.Errorf("dlclose: binary state %s", got)
	}
	r, warnings, err := LoadResolver(context.Background(), h, ResolverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	aliases := map[uint64][]string{}
	for addr, name := range want {
		aliases[addr] = append(aliases[addr], name)
	}
	for addr := range want {
		got, ok := r.Name("10", addr-load+base)
		if !ok || !slices.Contains(aliases[addr], got) {
			t.Fatalf("Name(%#x) = %q, %v; nm says %v", addr, got, ok, aliases[addr])
		}
		if inside, _ := r.Name("10", addr-load+base+1); inside != got+"+0x1" && want[addr+1] == "" {
			t.Fatalf("Name(%#x+1) = %q, want %s+0x1", addr, inside, got)
		}
		if got := r.Label("11", core.Int64(int64(addr-load+base))); got != "0x"+strconv.FormatUint(addr-load+base, 16) {
			t.Fatalf("process without binaries: Label = %q, want hex", got)
		}
	}
	for _, fn := range []string{"main", "helper", "f0", "f39"} {
		if !slices.ContainsFunc(slices.Collect(maps.Values(want)), func(s string) bool { return s == fn }) {
			t.Errorf("nm does not list %s: the comparison missed functions", fn)
		}
	}
}

// --symbols replaces a mapping file beside the trace, which is used
// without it; a missing --symbols file is an error naming it; a binary
// absent from this machine is a warning and its addresses stay hex.
func TestResolverOrder(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace")
	if err := os.Mkdir(trace, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "cyg-profile-mapping.txt"), "0000000000401000 T beside\n0000000000402000 T only_beside\n")
	explicit := filepath.Join(dir, "mine.nm")
	write(explicit, "0000000000401000 T mine\n")
	h := run(t, []core.Event{{Time: 1, Class: binInfo, Fields: []core.Field{num(10), ptr(0x40000000), ptr(4096), str(filepath.Join(dir, "gone.so")), num(1)}}}, 10)
	ctx := context.Background()

	r, warnings, err := LoadResolver(ctx, h, ResolverOptions{SymbolsFile: explicit, TracePath: trace})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "gone.so") {
		t.Errorf("warnings = %q, want one naming gone.so", warnings)
	}
	for addr, want := range map[int64]string{0x401000: "mine", 0x402000: "mine+0x1000", 0x40000010: "0x40000010", 0x900000000: "0x900000000"} {
		if got := r.Label("10", core.Int64(addr)); got != want {
			t.Errorf("Label(%#x) = %q, want %q", addr, got, want)
		}
	}
	if got := r.Label("10", core.String("request")); got != "request" {
		t.Errorf("named frame labelled %q", got)
	}
	r, _, err = LoadResolver(ctx, nil, ResolverOptions{TracePath: trace})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Label("", core.Int64(0x401000)); got != "beside" {
		t.Errorf("mapping beside the trace: %q", got)
	}
	var none *Resolver
	if got := none.Label("", core.Int64(0x401000)); got != "0x401000" {
		t.Errorf("nil resolver: %q", got)
	}
	if _, _, err := LoadResolver(ctx, nil, ResolverOptions{SymbolsFile: filepath.Join(dir, "missing.nm")}); err == nil || !strings.Contains(err.Error(), "missing.nm") {
		t.Errorf("missing --symbols file: err = %v", err)
	}
}
