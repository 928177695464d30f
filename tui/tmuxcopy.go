package tui

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// tmuxCopy is the copy key's way through tmux, when the browser runs in
// it ($TMUX set): tmux's default configuration drops an application's
// OSC 52 (set-clipboard external) and its passthrough (allow-passthrough
// off), but `tmux load-buffer -w` takes the text into a paste buffer and,
// when tmux can, on to the outer terminal's clipboard. nil outside tmux.
func tmuxCopy() func(text string) error {
	if os.Getenv("TMUX") == "" {
		return nil
	}
	return func(text string) error {
		// -w (tmux 3.2+) also sets the terminal's clipboard; older tmux
		// refuses the flag: load the buffer alone.
		err := loadBuffer(text, "-w")
		if err != nil {
			if err2 := loadBuffer(text); err2 == nil {
				return nil
			}
		}
		return err
	}
}

// loadBuffer runs tmux load-buffer with text on its input.
func loadBuffer(text string, flags ...string) error {
	cmd := exec.Command("tmux", append(append([]string{"load-buffer"}, flags...), "-")...)
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("tmux load-buffer: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
