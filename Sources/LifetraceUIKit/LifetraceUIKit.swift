// Apple-only adapters: compiled where UIKit exists, empty elsewhere. See docs/ARCHITECTURE.md.
#if canImport(UIKit)
import UIKit
#endif
