// Symbol names that are not identifiers are quoted, wherever they appear:
// module and function names, callees, symbol attributes, fused locations.
module @"m-1" attributes {s = @"x y"} {
  func.func private @"g h"(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    return %arg0 : tensor<2xf32>
  }
  func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = call @"g h"(%arg0) : (tensor<2xf32>) -> tensor<2xf32> loc(#loc1)
    return %0 : tensor<2xf32>
  }
}
#loc1 = loc(fused<@"bias[0]">["fc2.bias", unknown])
