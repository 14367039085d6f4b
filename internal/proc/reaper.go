// Package proc finds and kills the processes a gate left behind outside its process group: on
// Linux gauntlet becomes a child subreaper, so a daemon that calls setsid (gradle, bazel,
// sccache) is reparented to gauntlet instead of init when its parent exits, and is recognised by
// the run's markers in its environment. Elsewhere the process group is all there is.
package proc

import "time"

// settle bounds the repeated sweeps of one kill: killing an orphan makes its own children
// orphans in turn, and each round needs the previous one's processes gone.
const settle = 2 * time.Second
