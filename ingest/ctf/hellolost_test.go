package ctf_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/internal/bttest"
)

// TestHelloLostWhole compares all of hello-lost with babeltrace2 (issue
// 35 item 2). `babeltrace2 TRACE` aborts after 38 of its 32,300 events: a
// packet of channel1_2 begins before the previous one ends, which its
// muxer refuses. Each data stream file is copied alone beside the
// metadata and read by babeltrace2's source connected to its text sink
// without the muxer (bttest.RunUnmuxed), which reads it to the end; then
//   - the events of each stream, read from the whole trace, are
//     babeltrace2's for that stream, line for line;
//   - the packet index counts as many events;
//   - the discarded-events warnings of each stream are babeltrace2's, all
//     of them (562 for channel1_2), word for word but for the file name
//     and the stream id, which differ in the copy, and in the same order.
func TestHelloLostWhole(t *testing.T) {
	dir := filepath.Join(coretest.SharedTraces(t), "ctf", "hello-lost")
	r, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	nstreams := r.Info().Streams
	lines := make([][]string, nstreams)
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		lines[ev.Stream] = append(lines[ev.Stream], dumpLine(r, ev))
	}
	warnings := make([][]string, nstreams)
	for _, w := range r.Warnings() {
		warnings[w.Stream] = append(warnings[w.Stream], streamless(w.Message))
	}
	meta, err := os.ReadFile(filepath.Join(dir, "metadata"))
	if err != nil {
		t.Fatal(err)
	}
	events, checked := 0, 0
	for s := 0; s < nstreams; s++ {
		path := r.StreamPath(s)
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cp := filepath.Join(t.TempDir(), "hello-lost")
		if err := os.MkdirAll(cp, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cp, "metadata"), meta, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cp, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := bttest.RunUnmuxed(t, cp)
		if code != 0 {
			t.Fatalf("%s: babeltrace2 exit status %d: %s", name, code, stderr)
		}
		bttest.Compare(t, out, strings.Join(lines[s], ""))
		var counted int64
		for _, p := range r.Packets(s) {
			counted += p.Events
		}
		if counted != int64(len(lines[s])) {
			t.Errorf("%s: the packet index counts %d events, %d read", name, counted, len(lines[s]))
		}
		abs, _ := filepath.Abs(cp)
		var want []string
		for _, w := range bttest.Warnings(stderr) {
			want = append(want, streamless(strings.ReplaceAll(w, filepath.Join(abs, name), path)))
		}
		if len(warnings[s]) != len(want) {
			t.Errorf("%s: %d warnings, babeltrace2 reports %d", name, len(warnings[s]), len(want))
		}
		for i := range min(len(warnings[s]), len(want)) {
			if warnings[s][i] != want[i] {
				t.Errorf("%s: warning %d:\n     got %s\nbabeltrace2 %s", name, i, warnings[s][i], want[i])
			}
		}
		events += len(lines[s])
		checked += len(want)
	}
	if events != 32300 || checked != 562 {
		t.Errorf("%d events and %d warnings compared, want 32300 and 562", events, checked)
	}
	t.Logf("%d events and %d warnings compared with babeltrace2, stream by stream", events, checked)
}

// streamless cuts the stream ids from a warning: a copy of one stream
// file is stream 0.
func streamless(w string) string {
	w, _, _ = strings.Cut(w, " (stream class ID: ")
	return w
}

// dumpLine is the line dump prints for ev.
func dumpLine(r *ctf.Reader, ev *core.Event) string {
	var b []byte
	b = append(b, '[')
	b = core.AppendTimestamp(b, ev.Time)
	b = append(b, "] "...)
	if h, ok := r.Hostname(ev); ok {
		b = append(b, h...)
		b = append(b, ' ')
	}
	b = append(b, ev.Class.Name...)
	b = append(b, ": "...)
	b = r.AppendContents(b, ev)
	return string(append(b, '\n'))
}
