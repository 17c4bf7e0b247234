import Testing
@testable import Replay
