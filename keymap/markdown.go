package keymap

import "strings"

// Markdown returns the key table README.md shows (between its
// `<!-- keys:begin -->` and `<!-- keys:end -->` markers), generated from
// the bindings so the README never drifts from the code.
func (k KeyMap) Markdown() string {
	var b strings.Builder
	b.WriteString("| group | keys | action | keys.json name |\n|---|---|---|---|\n")
	for _, a := range k.Actions() {
		if !a.Binding.Enabled() {
			continue
		}
		keys := make([]string, 0, len(a.Binding.Keys()))
		for _, s := range a.Binding.Keys() {
			s = displayKey(s)
			if s == "|" {
				s = `\|`
			}
			keys = append(keys, "`"+s+"`")
		}
		b.WriteString("| " + a.Group + " | " + strings.Join(keys, " ") + " | " + a.Binding.Help().Desc + " | `" + a.Name + "` |\n")
	}
	return b.String()
}
