package history

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"sort"

	"github.com/tracetui/tracetui/core"
)

// The change log is read back at Close in batches of slots, so that one
// batch's intervals only are in memory (16 bytes each). Reading the whole
// log once per batch decoded it 8 times: a second of CPU on the Close of
// `gen --threads 200000`, on the build's critical path. With more than
// two batches the log is split first, in one pass, into one part per
// batch, and each batch reads its own part: the log is decoded twice.

// logPart is a change log file: records in the log's encoding, each end a
// delta from the previous record's in the same file (the first's from the
// history's start).
type logPart struct {
	f       *os.File
	records int64
}

// batches cuts the slots into runs of consecutive slots of about max
// records each (a slot with more is a batch alone): it returns the runs'
// bounds (batch k is slots bounds[k] to bounds[k+1]-1) and their records.
func (s *summaryBuild) batches(max int64) (bounds []int, records []int64) {
	bounds = []int{0}
	for lo := 0; lo < s.nslots; {
		hi, n := lo, int64(0)
		for hi < s.nslots && (hi == lo || n+int64(s.live(hi)) <= max) {
			n += int64(s.live(hi))
			hi++
		}
		bounds, records = append(bounds, hi), append(records, n)
		lo = hi
	}
	return bounds, records
}

// split returns the log part of each batch: the whole log for each when
// there are one or two batches, else one new temporary file per batch,
// written in one pass over the log. The caller removes the parts
// ([summaryBuild.removeParts]), also on error.
func (s *summaryBuild) split(ctx context.Context, bounds []int) ([]logPart, error) {
	parts := make([]logPart, len(bounds)-1)
	if len(parts) <= 2 {
		for i := range parts {
			parts[i] = logPart{f: s.log, records: s.records}
		}
		return parts, nil
	}
	ws := make([]*bufio.Writer, len(parts))
	last := make([]core.Time, len(parts))
	for i := range parts {
		f, err := createTemp(s.path, sumLogSuffix)
		if err != nil {
			return parts, err
		}
		parts[i].f, ws[i], last[i] = f, bufio.NewWriterSize(f, sumLogBuffer), s.start
	}
	var rec []byte
	var werr error
	rd := &logReader{s: s}
	err := rd.read(ctx, logPart{f: s.log, records: s.records}, func(slot int, end core.Time, v byte) {
		k := sort.SearchInts(bounds[1:], slot+1) // bounds[k] <= slot < bounds[k+1]
		rec = binary.AppendUvarint(rec[:0], uint64(slot))
		rec = binary.AppendUvarint(rec, uint64(end-last[k]))
		rec = append(rec, v)
		if _, err := ws[k].Write(rec); err != nil && werr == nil {
			werr = err
		}
		last[k] = end
		parts[k].records++
	})
	if err != nil {
		return parts, err
	}
	for _, w := range ws {
		if err := w.Flush(); err != nil && werr == nil {
			werr = err
		}
	}
	if werr != nil {
		return parts, fmt.Errorf("history: split the summaries' change log: %w", werr)
	}
	return parts, nil
}

// removeParts removes the temporary files split made (not the log).
func (s *summaryBuild) removeParts(parts []logPart) {
	for _, p := range parts {
		if p.f != nil && p.f != s.log {
			name := p.f.Name()
			p.f.Close()
			os.Remove(name)
		}
	}
}
