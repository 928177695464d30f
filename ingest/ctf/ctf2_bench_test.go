package ctf_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/internal/bttest"
)

// ctf2Twin copies a CTF 1.8 trace and converts its metadata to CTF 2.
func ctf2Twin(b *testing.B, src string) string {
	dir := coretest.CopyDir(b, src)
	meta, err := ctf.ToCTF2(dir)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata"), meta, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkDumpCTF2VsBabeltrace runs the built `tracetui dump` and
// babeltrace2 2.1 on the CTF 2 twin of a generated 50 000-thread kernel
// trace (output to /dev/null), alternately: the target is tracetui 3x
// faster. It skips without babeltrace2 2.1.
func BenchmarkDumpCTF2VsBabeltrace(b *testing.B) {
	bt := bttest.Tool21(b)
	bin := coretest.Binary(b)
	dir := ctf2Twin(b, gentest.Trace(b, 50_000))
	events := countEvents(b, dir)
	var tt, bb gentest.Runs
	for i := 0; i < b.N; i++ {
		tt.Add(b, exec.Command(bin, "dump", dir))
		bb.Add(b, exec.Command(bt, "--clock-seconds", "--no-delta", dir))
	}
	n := float64(events) * float64(b.N)
	b.ReportMetric(n/tt.Wall.Seconds(), "tracetui-events/s")
	b.ReportMetric(n/bb.Wall.Seconds(), "babeltrace2-events/s")
	b.ReportMetric(bb.Wall.Seconds()/tt.Wall.Seconds(), "ratio-wall")
	b.ReportMetric(bb.CPU.Seconds()/tt.CPU.Seconds(), "ratio-cpu")
}

// BenchmarkDecodeCTF2Twin decodes a generated 50 000-thread kernel trace
// (sub-benchmark ctf18) and its CTF 2 twin (ctf2): the same plan runs
// both, so they must cost the same. Reported: events per CPU second.
func BenchmarkDecodeCTF2Twin(b *testing.B) {
	src := gentest.Trace(b, 50_000)
	for _, f := range []struct {
		name, dir string
	}{{"ctf18", src}, {"ctf2", ctf2Twin(b, src)}} {
		b.Run(f.name, func(b *testing.B) {
			events := countEvents(b, f.dir)
			cpu0 := gentest.CPUTime()
			for i := 0; i < b.N; i++ {
				countEvents(b, f.dir)
			}
			b.ReportMetric(float64(events)*float64(b.N)/(gentest.CPUTime()-cpu0).Seconds(), "events/cpu-s")
		})
	}
}

// BenchmarkIndexCTF2Twin runs the built `tracetui index` alternately on a
// generated 30 000-thread kernel trace in CTF 1.8 and on its CTF 2 twin
// (the same streams, the metadata converted). The target (issue 27): the
// CTF 2 index costs no more than the CTF 1.8 one, within 5 %; reported as
// the twin's CPU time over the original's.
//
//	go test ./ingest/ctf -run '^$' -bench IndexCTF2Twin -benchtime 5x
func BenchmarkIndexCTF2Twin(b *testing.B) {
	bin := coretest.Binary(b)
	src := gentest.Trace(b, 30_000)
	twin := ctf2Twin(b, src)
	idx := filepath.Join(b.TempDir(), "index.tti")
	var v18, v2 gentest.Runs
	for range b.N {
		v18.Add(b, exec.Command(bin, "index", "--index", idx, src))
		v2.Add(b, exec.Command(bin, "index", "--index", idx, twin))
	}
	n := float64(b.N)
	b.ReportMetric(v18.CPU.Seconds()/n, "ctf18-cpu-s")
	b.ReportMetric(v2.CPU.Seconds()/n, "ctf2-cpu-s")
	b.ReportMetric(v2.CPU.Seconds()/v18.CPU.Seconds(), "ctf2/ctf18-cpu")
	b.ReportMetric(v2.Wall.Seconds()/v18.Wall.Seconds(), "ctf2/ctf18-wall")
}
