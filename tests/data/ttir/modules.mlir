// Several functions and nested modules: a private callee, a declaration,
// multi-result ops kept opaque, constants of every kind, rank 0.
module @outer {
  ttcore.device_module {
    builtin.module @inner attributes {mhlo.num_partitions = 1 : i32} {
      func.func private @scale(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
        %0 = "ttir.multiply"(%arg0, %arg1) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
        return %0 : tensor<4xf32>
      }
      func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<2x2xi32>) {
        %c = "ttir.constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
        %0 = func.call @scale(%arg0, %c) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
        %1 = "ttir.constant"() <{value = dense<[[1, -2], [3, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
        %2 = "ttir.constant"() <{value = dense<"0x0000803F000000400000404000008040"> : tensor<4xf32>}> : () -> tensor<4xf32>
        %3 = "ttir.constant"() <{value = dense<[true, false, true, true]> : tensor<4xi1>}> : () -> tensor<4xi1>
        %4 = "ttir.where"(%3, %0, %2) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        %5 = "ttir.typecast"(%4) <{conservative_folding = false}> : (tensor<4xf32>) -> tensor<4xbf16>
        %6 = "ttir.zeros"() <{shape = array<i32: 4>}> : () -> tensor<4xbf16>
        %7 = "ttir.ge"(%5, %6) : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xi1>
        %8 = "ttir.ones"() <{shape = array<i32: 2, 2>}> : () -> tensor<2x2xi32>
        %9 = "ttir.maximum"(%1, %8) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
        return %4, %9 : tensor<4xf32>, tensor<2x2xi32>
      }
      func.func private @external(tensor<4xf32>) -> tensor<4xf32>
    }
  }
}
