package ctf

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tracetui/tracetui/ingest/ctf/ctf2"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// maxMetadataSize bounds the metadata file read into memory. The largest
// real ones (LTTng kernel traces with every syscall) are a few MiB.
const maxMetadataSize = 256 << 20

// traceInfo is one trace of a reader: a directory holding a metadata file
// and data stream files.
type traceInfo struct {
	dir      string
	rel      string // relative to the path given to Open ("" for itself)
	plan     *tracePlan
	hostname string
	hasHost  bool
	label    string // what dump prints for the trace: hostname[:procname][:(vpid)]
	domain   string
	name     string // babeltrace2's trace name, for warnings
	uuid     string // "xxxxxxxx-...", "" if none
}

// FindTraces returns the trace directories under root (root itself when
// it holds a metadata file), in lexical order. A trace directory is not
// searched further, as babeltrace2 does.
func FindTraces(root string) ([]string, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory (a CTF trace is a directory holding a metadata file)", root)
	}
	var dirs []string
	err = filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !de.IsDir() {
			return nil
		}
		if isFile(filepath.Join(p, "metadata")) {
			dirs = append(dirs, p)
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dirs, nil
}

// IsTrace reports whether path is a CTF trace directory or holds one.
func IsTrace(path string) bool {
	dirs, err := FindTraces(path)
	return err == nil && len(dirs) > 0
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// ReadMetadata reads and parses a trace directory's metadata file.
func ReadMetadata(dir string) (*tsdl.Trace, error) {
	p := filepath.Join(dir, "metadata")
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readLimited(f, maxMetadataSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(data) > maxMetadataSize {
		return nil, fmt.Errorf("%s: larger than %d MiB", p, maxMetadataSize>>20)
	}
	meta, err := parseMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return meta, nil
}

// parseMetadata parses a metadata file's bytes: CTF 2 when its first
// byte is the record separator 0x1E, else TSDL (plain text or packets,
// whose content may itself be CTF 2).
func parseMetadata(data []byte) (*tsdl.Trace, error) {
	if ctf2.IsCTF2(data) {
		return ctf2.Parse(data)
	}
	if tsdl.IsPacketized(data) {
		text, err := tsdl.Decode(data)
		if err != nil {
			return nil, err
		}
		if ctf2.IsCTF2(text) {
			return ctf2.Parse(text)
		}
		return tsdl.Parse(text)
	}
	text, err := tsdl.Decode(data)
	if err != nil {
		return nil, err
	}
	return tsdl.Parse(text)
}

// readLimited reads f whole, or its first limit+1 bytes when it is
// larger, into a buffer sized from its length (io.ReadAll doubles from
// 512 bytes: 1.4 MB allocated to read a 600 KB metadata file).
func readLimited(f *os.File, limit int64) ([]byte, error) {
	var size int64
	if st, err := f.Stat(); err == nil {
		size = min(max(st.Size(), 0), limit)
	}
	buf := make([]byte, 0, size+1) // +1: EOF is seen without growing
	for int64(len(buf)) <= limit {
		if len(buf) == cap(buf) { // the file grew since Stat
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):min(int64(cap(buf)), limit+1)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// openTrace reads a trace's metadata (unless meta, parsed before, is
// given), compiles it and opens its data streams (scanning their packets).
func openTrace(dir, rel string, firstStream int32, meta *tsdl.Trace) (*traceInfo, []*stream, error) {
	stated := meta != nil
	if !stated {
		var err error
		if meta, err = ReadMetadata(dir); err != nil {
			return nil, nil, err
		}
	}
	// Metadata from an index compiled whole when the trace was indexed:
	// its event classes are compiled as they are met.
	tr, err := newTrace(meta, dir, rel, stated)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", filepath.Join(dir, "metadata"), err)
	}
	names, err := dataFiles(dir)
	if err != nil {
		return nil, nil, err
	}
	var streams []*stream
	fail := func(err error) (*traceInfo, []*stream, error) {
		for _, s := range streams {
			s.f.Close()
		}
		return nil, nil, err
	}
	for _, name := range names {
		p := filepath.Join(dir, name)
		f, err := os.Open(p)
		if err != nil {
			return fail(err)
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return fail(err)
		}
		if st.Size() == 0 {
			f.Close()
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		s, err := tr.openStream(abs, f, st.Size(), firstStream+int32(len(streams)))
		if s != nil {
			streams = append(streams, s)
		}
		if err != nil {
			return fail(err)
		}
	}
	return tr, streams, nil
}

// newTrace compiles a trace's metadata (lazily: see compileTrace).
func newTrace(meta *tsdl.Trace, dir, rel string, lazy bool) (*traceInfo, error) {
	plan, err := compileTrace(meta, lazy)
	if err != nil {
		return nil, err
	}
	tr := &traceInfo{dir: dir, rel: rel, plan: plan}
	tr.hostname, tr.hasHost = meta.EnvString("hostname")
	tr.label = traceLabel(meta)
	tr.domain, _ = meta.EnvString("domain")
	tr.name = tr.hostname
	if rel != "" {
		if tr.name != "" {
			tr.name += "/"
		}
		tr.name += filepath.ToSlash(rel)
	}
	if meta.HasUUID {
		u := meta.UUID
		tr.uuid = fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
	}
	return tr, nil
}

// openStream scans the packets of a data stream file.
func (tr *traceInfo) openStream(path string, f dataFile, size int64, idx int32) (*stream, error) {
	s := &stream{idx: idx, tr: tr, path: path, f: f, size: size, cur: -1, cpu: -1}
	return s, s.scan()
}

// isTracetuiFile reports names tracetui gives its own files (an index and
// its build lock), which an older version let users put inside a trace
// directory: they are not streams.
func isTracetuiFile(name string) bool {
	return strings.HasSuffix(name, ".tti") || strings.HasSuffix(name, ".tti.lock")
}

// dataFiles lists the data stream files of a trace directory: regular
// files but the metadata, hidden ones and tracetui's own, in natural
// order (channel0_2 before channel0_10).
func dataFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if name == "metadata" || strings.HasPrefix(name, ".") || isTracetuiFile(name) {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if e.Type()&fs.ModeSymlink != 0 {
			if info, err = os.Stat(filepath.Join(dir, name)); err != nil {
				continue
			}
		}
		if !info.Mode().IsRegular() {
			continue
		}
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return naturalLess(names[i], names[j]) })
	return names, nil
}

// naturalLess compares strings with runs of digits compared as numbers
// (ties broken by plain comparison).
func naturalLess(a, b string) bool {
	if c := naturalCmp(a, b); c != 0 {
		return c < 0
	}
	return a < b
}

func naturalCmp(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if na != nb {
				return strings.Compare(na, nb)
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// traceLabel is what babeltrace2 prints before an event's name to say
// which trace it comes from: the env's hostname, then for LTTng-UST
// per-process traces its procname and (vpid), separated by colons.
func traceLabel(meta *tsdl.Trace) string {
	var parts []string
	if h, ok := meta.EnvString("hostname"); ok {
		parts = append(parts, h)
	}
	if p, ok := meta.EnvString("procname"); ok {
		parts = append(parts, p)
	}
	for _, e := range meta.Env {
		if e.Name == "vpid" && !e.IsStr {
			parts = append(parts, fmt.Sprintf("(%d)", e.Int))
		}
	}
	return strings.Join(parts, ":")
}
