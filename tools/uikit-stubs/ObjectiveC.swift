// Declaration-only stand-in for the parts of Apple's `ObjectiveC` module (the Objective-C runtime as Swift sees
// it) that Sources/LifetraceUIKit uses, so tools/check-uikit can type-check LifetraceUIKit on Linux. NOT a
// package target: nothing here is ever linked or shipped; the bodies only satisfy the compiler.
//
// Compiled by tools/check-uikit with `swiftc -frontend -emit-module -enable-objc-interop
// -disable-objc-attr-requires-foundation-module`: with Objective-C interop on, the type checker treats classes
// rooted at this `NSObject` as Objective-C classes, so `@objc`, `dynamic`, `#selector`, `@convention(block)` and
// `@convention(c)` over them are checked as on Apple platforms.
//
// Every signature is the Swift one on Apple's documentation page named next to it
// (https://developer.apple.com/documentation/objectivec/...). C functions imported by Swift are implicitly
// `@discardableResult`; the stubs say so explicitly where they return a value.

/// developer.apple.com/documentation/objectivec/nsobject — `class NSObject` (the root class).
@objc open class NSObject: NSObjectProtocol {
    public init() {}
    open func isEqual(_ object: Any?) -> Bool { fatalError("stub") }
    open var hash: Int { fatalError("stub") }
}

/// developer.apple.com/documentation/objectivec/nsobjectprotocol — `protocol NSObjectProtocol`.
@objc public protocol NSObjectProtocol {}

extension NSObject: Equatable, Hashable {
    public static func == (lhs: NSObject, rhs: NSObject) -> Bool { lhs.isEqual(rhs) }
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// developer.apple.com/documentation/objectivec/selector — `struct Selector` (Equatable, Hashable; the
/// `SEL` type; `#selector` produces one).
/// Its one stored property, an `OpaquePointer` (the `SEL`), is the layout the compiler's lowering expects.
@frozen public struct Selector: Equatable, Hashable, ExpressibleByStringLiteral {
    var ptr: OpaquePointer
    public init(_ str: String) { fatalError("stub") }
    public init(stringLiteral value: String) { fatalError("stub") }
}

/// developer.apple.com/documentation/objectivec/objcbool — `struct ObjCBool` (the compiler maps Objective-C
/// `BOOL` to it under Objective-C interop).
@frozen public struct ObjCBool {
    var value: Bool
    public init(_ value: Bool) { fatalError("stub") }
    public var boolValue: Bool { fatalError("stub") }
}

/// developer.apple.com/documentation/objectivec/method — `typealias Method = OpaquePointer`.
public typealias Method = OpaquePointer

/// developer.apple.com/documentation/objectivec/imp — `typealias IMP = OpaquePointer`.
public typealias IMP = OpaquePointer

/// developer.apple.com/documentation/objectivec/objc_associationpolicy — `enum objc_AssociationPolicy`
/// (raw type `UInt`; cases as documented).
public enum objc_AssociationPolicy: UInt, @unchecked Sendable {
    case OBJC_ASSOCIATION_ASSIGN = 0
    case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
    case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
    case OBJC_ASSOCIATION_RETAIN = 769
    case OBJC_ASSOCIATION_COPY = 771
}

/// developer.apple.com/documentation/objectivec/class_getinstancemethod(_:_:) —
/// `func class_getInstanceMethod(_ cls: AnyClass?, _ name: Selector) -> Method?`
public func class_getInstanceMethod(_ cls: AnyClass?, _ name: Selector) -> Method? { fatalError("stub") }

/// developer.apple.com/documentation/objectivec/class_copymethodlist(_:_:) —
/// `func class_copyMethodList(_ cls: AnyClass?, _ outCount: UnsafeMutablePointer<UInt32>?)
/// -> UnsafeMutablePointer<Method>?` (the caller frees the array with `free()`).
public func class_copyMethodList(_ cls: AnyClass?, _ outCount: UnsafeMutablePointer<UInt32>?)
    -> UnsafeMutablePointer<Method>?
{ fatalError("stub") }

/// developer.apple.com/documentation/objectivec/class_getsuperclass(_:) —
/// `func class_getSuperclass(_ cls: AnyClass?) -> AnyClass?`
public func class_getSuperclass(_ cls: AnyClass?) -> AnyClass? { fatalError("stub") }

/// developer.apple.com/documentation/objectivec/method_getname(_:) — `func method_getName(_ m: Method) -> Selector`
public func method_getName(_ m: Method) -> Selector { fatalError("stub") }

/// developer.apple.com/documentation/objectivec/method_getimplementation(_:) —
/// `func method_getImplementation(_ m: Method) -> IMP`
public func method_getImplementation(_ m: Method) -> IMP { fatalError("stub") }

/// developer.apple.com/documentation/objectivec/method_setimplementation(_:_:) —
/// `func method_setImplementation(_ m: Method, _ imp: IMP) -> IMP` (returns the previous implementation).
@discardableResult
public func method_setImplementation(_ m: Method, _ imp: IMP) -> IMP { fatalError("stub") }

/// developer.apple.com/documentation/objectivec/method_exchangeimplementations(_:_:) —
/// `func method_exchangeImplementations(_ m1: Method, _ m2: Method)`
public func method_exchangeImplementations(_ m1: Method, _ m2: Method) { fatalError("stub") }

/// developer.apple.com/documentation/objectivec/imp_implementationwithblock(_:) —
/// `func imp_implementationWithBlock(_ block: Any) -> IMP` (the block is `Block_copy`'d).
public func imp_implementationWithBlock(_ block: Any) -> IMP { fatalError("stub") }

/// developer.apple.com/documentation/objectivec/objc_setassociatedobject(_:_:_:_:) —
/// `func objc_setAssociatedObject(_ object: Any, _ key: UnsafeRawPointer, _ value: Any?,
/// _ policy: objc_AssociationPolicy)`
public func objc_setAssociatedObject(
    _ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy
) { fatalError("stub") }

/// developer.apple.com/documentation/objectivec/objc_getassociatedobject(_:_:) —
/// `func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any?`
public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? { fatalError("stub") }

// The conversions the compiler calls where Objective-C `BOOL` meets Swift `Bool` (defined in Apple's
// ObjectiveC overlay; the compiler looks them up by name when it lowers Objective-C signatures).
public func _convertBoolToObjCBool(_ x: Bool) -> ObjCBool { fatalError("stub") }
public func _convertObjCBoolToBool(_ x: ObjCBool) -> Bool { fatalError("stub") }
