// Stand-in for the part of Apple's CoreGraphics C header that LifetraceUIKit uses, so `CGSize` is a C struct
// (as in the SDK) and may appear in `@convention(c)` function types. Apple: CGGeometry.h, CGSize
// (developer.apple.com/documentation/corefoundation/cgsize); CGFloat is `double` on 64-bit platforms
// (developer.apple.com/documentation/corefoundation/cgfloat). Without Apple's Swift overlay, Swift sees
// `CGFloat` as `Double` here, not as the overlay's `CGFloat` struct.
typedef double CGFloat;
struct CGSize {
    CGFloat width;
    CGFloat height;
};
typedef struct CGSize CGSize;
