package index

import (
	"errors"
	"fmt"
	"io"

	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/index/pstree"
)

// maxProcessTable bounds the process tree section: far more than the 40
// or so bytes a row takes at millions of threads.
const maxProcessTable = 1 << 31

// ControlFlowRows returns the browser's Control Flow rows stored with the
// index, read on demand, or nil when the index has none (built before they
// were stored, or in an earlier format) or their header is damaged: the
// browser then arranges them from the history ([pstree.Query]), which also
// reports a damaged history. Damage, found at open or later while the rows
// are read, marks the index bad, as a damaged node does (see
// damage.check), so the next open rebuilds it.
func (t *Index) ControlFlowRows() *pstree.Rows {
	sec, err := t.tree.Section(pstree.SectionName)
	if errors.Is(err, history.ErrNoSection) {
		return nil
	}
	if err == nil && sec.Size() > maxProcessTable {
		err = fmt.Errorf("%w: a section of %d bytes", pstree.ErrCorrupt, sec.Size())
	}
	var rows *pstree.Rows
	if err == nil {
		rows, err = pstree.OpenRows(sec, sec.Size(), t.damaged)
	}
	if errors.Is(err, pstree.ErrOldFormat) {
		return nil
	}
	if err != nil {
		t.damaged(err)
		return nil
	}
	return rows
}

// damaged reports damage of the process tree section (a failed read, as
// after Close, is not damage).
func (t *Index) damaged(err error) {
	if errors.Is(err, pstree.ErrCorrupt) {
		err = fmt.Errorf("%w: process tree section: %w", history.ErrCorrupt, err)
	}
	t.damage.check(err)
}

// addRowsSection writes the Control Flow rows as the process tree section,
// encoded as the builder copies them (at millions of threads the encoded
// bytes held whole were a hundred MB more at the build's end).
func addRowsSection(b *history.Builder, rows *pstree.Encoded) error {
	pr, pw := io.Pipe()
	go func() { _, err := rows.WriteTo(pw); pw.CloseWithError(err) }()
	err := b.AddSection(pstree.SectionName, rows.Size(), pr)
	pr.CloseWithError(errors.New("the section was not read to its end")) // the writer stops if it has not
	return err
}
