import Testing
@testable import TraceModel
