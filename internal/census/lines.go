package census

import "github.com/gauntlet-dev/gauntlet/internal/boundedio"

// maxLine bounds a line the line-based readers keep (boundedio.MaxLine).
const maxLine = boundedio.MaxLine
