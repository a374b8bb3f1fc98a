"""Cases of burn's pool tests (burn-backend-tests at 2c06be351), copied unchanged: for the
TestCase-style avg and adaptive avg pool tests, burn's test name, its TestCase fields (burn's
names; inputs are arange tensors built from them, as burn builds them) and its expected tensors."""

import numpy as np

# burn: crates/burn-backend-tests/tests/tensor/float/module/avgpool1d.rs
AVG_POOL1D = [
    (
        "test_avg_pool1d_simple",
        dict(
            batch_size=1,
            channels=1,
            kernel_size=3,
            padding=0,
            stride=1,
            length=6,
            count_include_pad=True,
        ),
        dict(
            expected=[[[1.0, 2.0, 3.0, 4.0]]],
        ),
    ),
    (
        "test_avg_pool1d_complex",
        dict(
            batch_size=1,
            channels=2,
            kernel_size=3,
            padding=1,
            stride=2,
            length=6,
            count_include_pad=True,
        ),
        dict(
            expected=[
                [
                    [0.33333, 2.0000, 4.0000],
                    [4.33333, 8.0000, 10.0000],
                ]
            ],
        ),
    ),
    (
        "test_avg_pool1d_complex_dont_count_pad",
        dict(
            batch_size=1,
            channels=2,
            kernel_size=3,
            padding=1,
            stride=2,
            length=6,
            count_include_pad=False,
        ),
        dict(
            expected=[
                [
                    [0.5000, 2.0000, 4.0000],
                    [6.5000, 8.0000, 10.0000],
                ]
            ],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/autodiff/avgpool1d.rs
AVG_POOL1D_GRADS = [
    (
        "test_avg_pool1d_simple",
        dict(
            batch_size=1,
            channels=1,
            kernel_size=3,
            padding=0,
            stride=1,
            length=6,
            count_include_pad=True,
        ),
        dict(
            expected=[[[0.33333, 0.66667, 1.0000, 1.0000, 0.66667, 0.33333]]],
        ),
    ),
    (
        "test_avg_pool1d_complex",
        dict(
            batch_size=1,
            channels=2,
            kernel_size=3,
            padding=1,
            stride=2,
            length=6,
            count_include_pad=True,
        ),
        dict(
            expected=[
                [
                    [0.33333, 0.66667, 0.33333, 0.66667, 0.33333, 0.33333],
                    [0.33333, 0.66667, 0.33333, 0.66667, 0.33333, 0.33333],
                ]
            ],
        ),
    ),
    (
        "test_avg_pool1d_complex_dont_count_pad",
        dict(
            batch_size=1,
            channels=2,
            kernel_size=3,
            padding=1,
            stride=2,
            length=6,
            count_include_pad=False,
        ),
        dict(
            expected=[
                [
                    [0.5000, 0.83333, 0.33333, 0.66667, 0.33333, 0.33333],
                    [0.5000, 0.83333, 0.33333, 0.66667, 0.33333, 0.33333],
                ]
            ],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/tensor/float/module/avgpool2d.rs
AVG_POOL2D = [
    (
        "test_avg_pool2d_simple",
        dict(
            batch_size=1,
            channels=1,
            kernel_size_1=3,
            kernel_size_2=3,
            padding_1=0,
            padding_2=0,
            stride_1=1,
            stride_2=1,
            height=6,
            width=6,
            count_include_pad=True,
        ),
        dict(
            expected=[
                [
                    [
                        [7.0, 8.0, 9.0, 10.0],
                        [13.0, 14.0, 15.0, 16.0],
                        [19.0, 20.0, 21.0, 22.0],
                        [25.0, 26.0, 27.0, 28.0],
                    ]
                ]
            ],
        ),
    ),
    (
        "test_avg_pool2d_complex",
        dict(
            batch_size=1,
            channels=1,
            kernel_size_1=3,
            kernel_size_2=4,
            padding_1=1,
            padding_2=2,
            stride_1=1,
            stride_2=2,
            height=4,
            width=6,
            count_include_pad=True,
        ),
        dict(
            expected=[
                [
                    [
                        [1.1667, 3.0000, 4.3333, 2.5000],
                        [3.2500, 7.5000, 9.5000, 5.2500],
                        [6.2500, 13.5000, 15.5000, 8.2500],
                        [5.1667, 11.0000, 12.3333, 6.5000],
                    ]
                ]
            ],
        ),
    ),
    (
        "test_avg_pool2d_complex_dont_include_pad",
        dict(
            batch_size=1,
            channels=1,
            kernel_size_1=3,
            kernel_size_2=4,
            padding_1=1,
            padding_2=2,
            stride_1=1,
            stride_2=2,
            height=4,
            width=6,
            count_include_pad=False,
        ),
        dict(
            expected=[
                [
                    [
                        [3.5000, 4.5000, 6.5000, 7.5000],
                        [6.5000, 7.5000, 9.5000, 10.5000],
                        [12.5000, 13.5000, 15.5000, 16.5000],
                        [15.5000, 16.5000, 18.5000, 19.5000],
                    ]
                ]
            ],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/autodiff/avgpool2d.rs
AVG_POOL2D_GRADS = [
    (
        "test_avg_pool2d_simple",
        dict(
            batch_size=1,
            channels=1,
            kernel_size_1=3,
            kernel_size_2=3,
            padding_1=0,
            padding_2=0,
            stride_1=1,
            stride_2=1,
            height=6,
            width=6,
            count_include_pad=True,
        ),
        dict(
            expected=[
                [
                    [
                        [0.11111, 0.22222, 0.33333, 0.33333, 0.22222, 0.11111],
                        [0.22222, 0.44444, 0.66667, 0.66667, 0.44444, 0.22222],
                        [0.33333, 0.66667, 1.00000, 1.00000, 0.66667, 0.33333],
                        [0.33333, 0.66667, 1.00000, 1.00000, 0.66667, 0.33333],
                        [0.22222, 0.44444, 0.66667, 0.66667, 0.44444, 0.22222],
                        [0.11111, 0.22222, 0.33333, 0.33333, 0.22222, 0.11111],
                    ]
                ]
            ],
        ),
    ),
    (
        "test_avg_pool2d_complex",
        dict(
            batch_size=1,
            channels=1,
            kernel_size_1=3,
            kernel_size_2=4,
            padding_1=1,
            padding_2=2,
            stride_1=1,
            stride_2=2,
            height=4,
            width=6,
            count_include_pad=True,
        ),
        dict(
            expected=[
                [
                    [
                        [0.33333, 0.33333, 0.33333, 0.33333, 0.33333, 0.33333],
                        [0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000],
                        [0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000],
                        [0.33333, 0.33333, 0.33333, 0.33333, 0.33333, 0.33333],
                    ]
                ]
            ],
        ),
    ),
    (
        "test_avg_pool2d_complex_dont_include_pad",
        dict(
            batch_size=1,
            channels=1,
            kernel_size_1=3,
            kernel_size_2=4,
            padding_1=1,
            padding_2=2,
            stride_1=1,
            stride_2=2,
            height=4,
            width=6,
            count_include_pad=False,
        ),
        dict(
            expected=[
                [
                    [
                        [0.6250, 0.6250, 0.41667, 0.41667, 0.6250, 0.6250],
                        [0.8750, 0.8750, 0.58333, 0.58333, 0.8750, 0.8750],
                        [0.8750, 0.8750, 0.58333, 0.58333, 0.8750, 0.8750],
                        [0.6250, 0.6250, 0.41667, 0.41667, 0.6250, 0.6250],
                    ]
                ]
            ],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/tensor/float/module/adaptive_avgpool1d.rs
ADAPTIVE_AVG_POOL1D = [
    (
        "test_adaptive_avg_pool1d_simple",
        dict(batch_size=1, channels=2, length=8, length_out=4),
        dict(
            expected=[
                [
                    [0.5, 2.5, 4.5, 6.5],
                    [8.5, 10.5, 12.5, 14.5],
                ]
            ],
        ),
    ),
    (
        "test_adaptive_avg_pool1d_dyn_filter_size",
        dict(batch_size=1, channels=2, length=7, length_out=3),
        dict(
            expected=[[[1.0, 3.0, 5.0], [8.0, 10.0, 12.0]]],
        ),
    ),
    (
        "test_adaptive_avg_pool1d_bigger_output",
        dict(batch_size=1, channels=2, length=4, length_out=8),
        dict(
            expected=[
                [
                    [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0],
                    [4.0, 4.0, 5.0, 5.0, 6.0, 6.0, 7.0, 7.0],
                ]
            ],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/autodiff/adaptive_avgpool1d.rs
ADAPTIVE_AVG_POOL1D_GRADS = [
    (
        "test_avg_pool1d_simple",
        dict(batch_size=1, channels=2, length=5, output_size=3),
        dict(
            expected=[
                [
                    [0.5000, 0.83333, 0.33333, 0.83333, 0.5000],
                    [0.5000, 0.83333, 0.33333, 0.83333, 0.5000],
                ]
            ],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/tensor/float/module/adaptive_avgpool2d.rs
ADAPTIVE_AVG_POOL2D = [
    (
        "test_adaptive_avg_pool2d_simple",
        dict(batch_size=1, channels=2, height=8, width=6, height_out=4, width_out=4),
        dict(
            expected=[
                [
                    [
                        [3.5000, 4.5000, 6.5000, 7.5000],
                        [15.5000, 16.5000, 18.5000, 19.5000],
                        [27.5000, 28.5000, 30.5000, 31.5000],
                        [39.5000, 40.5000, 42.5000, 43.5000],
                    ],
                    [
                        [51.5000, 52.5000, 54.5000, 55.5000],
                        [63.5000, 64.5000, 66.5000, 67.5000],
                        [75.5000, 76.5000, 78.5000, 79.5000],
                        [87.5000, 88.5000, 90.5000, 91.5000],
                    ],
                ]
            ],
        ),
    ),
    (
        "test_adaptive_avg_pool2d_dyn_filter_size",
        dict(batch_size=1, channels=2, height=5, width=7, height_out=3, width_out=2),
        dict(
            expected=[
                [
                    [[5.0000, 8.0000], [15.5000, 18.5000], [26.0000, 29.0000]],
                    [[40.0000, 43.0000], [50.5000, 53.5000], [61.0000, 64.0000]],
                ]
            ],
        ),
    ),
    (
        "test_adaptive_avg_pool2d_bigger_output",
        dict(batch_size=1, channels=2, height=4, width=3, height_out=5, width_out=4),
        dict(
            expected=[
                [
                    [
                        [0.0000, 0.5000, 1.5000, 2.0000],
                        [1.5000, 2.0000, 3.0000, 3.5000],
                        [4.5000, 5.0000, 6.0000, 6.5000],
                        [7.5000, 8.0000, 9.0000, 9.5000],
                        [9.0000, 9.5000, 10.5000, 11.0000],
                    ],
                    [
                        [12.0000, 12.5000, 13.5000, 14.0000],
                        [13.5000, 14.0000, 15.0000, 15.5000],
                        [16.5000, 17.0000, 18.0000, 18.5000],
                        [19.5000, 20.0000, 21.0000, 21.5000],
                        [21.0000, 21.5000, 22.5000, 23.0000],
                    ],
                ]
            ],
        ),
    ),
    (
        "test_adaptive_avg_pool2d_global",
        dict(batch_size=2, channels=2, height=4, width=5, height_out=1, width_out=1),
        dict(
            expected=[
                [[[9.5000]], [[29.5000]]],
                [[[49.5000]], [[69.5000]]],
            ],
        ),
    ),
    (
        "test_adaptive_avg_pool2d_global_odd_shape",
        dict(batch_size=1, channels=2, height=5, width=7, height_out=1, width_out=1),
        dict(
            expected=[[[[17.0000]], [[52.0000]]]],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/autodiff/adaptive_avgpool2d.rs
ADAPTIVE_AVG_POOL2D_GRADS = [
    (
        "test_avg_pool2d_simple",
        dict(batch_size=1, channels=2, height=5, width=3, output_size_1=3, output_size_2=2),
        dict(
            expected=[
                [
                    [
                        [0.2500, 0.5000, 0.2500],
                        [0.41667, 0.83333, 0.41667],
                        [0.16667, 0.33333, 0.16667],
                        [0.41667, 0.83333, 0.41667],
                        [0.2500, 0.5000, 0.2500],
                    ],
                    [
                        [0.2500, 0.5000, 0.2500],
                        [0.41667, 0.83333, 0.41667],
                        [0.16667, 0.33333, 0.16667],
                        [0.41667, 0.83333, 0.41667],
                        [0.2500, 0.5000, 0.2500],
                    ],
                ]
            ],
        ),
    ),
    (
        "test_avg_pool2d_output_1",
        dict(batch_size=1, channels=1, height=4, width=8, output_size_1=1, output_size_2=1),
        dict(
            expected=[
                [
                    [
                        [
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                        ],
                        [
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                        ],
                        [
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                        ],
                        [
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                            0.03125,
                        ],
                    ]
                ]
            ],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/tensor/float/module/adaptive_avgpool3d.rs
ADAPTIVE_AVG_POOL3D = [
    (
        "test_adaptive_avg_pool3d_simple",
        dict(
            batch_size=1,
            channels=2,
            depth=4,
            height=4,
            width=4,
            depth_out=2,
            height_out=2,
            width_out=2,
        ),
        dict(
            expected=[
                [
                    [[[10.5, 12.5], [18.5, 20.5]], [[42.5, 44.5], [50.5, 52.5]]],
                    [
                        [[74.5, 76.5], [82.5, 84.5]],
                        [[106.5, 108.5], [114.5, 116.5]],
                    ],
                ]
            ],
        ),
    ),
    (
        "test_adaptive_avg_pool3d_output_1",
        dict(
            batch_size=1,
            channels=1,
            depth=2,
            height=2,
            width=2,
            depth_out=1,
            height_out=1,
            width_out=1,
        ),
        dict(
            expected=[[[[[3.5]]]]],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/autodiff/adaptive_avgpool3d.rs
ADAPTIVE_AVG_POOL3D_GRADS = [
    (
        "test_adaptive_avg_pool3d_backward_simple",
        dict(
            batch_size=1,
            channels=1,
            depth=2,
            height=2,
            width=2,
            depth_out=1,
            height_out=1,
            width_out=1,
        ),
        dict(
            expected=[
                [
                    [
                        [[0.125, 0.125], [0.125, 0.125]],
                        [[0.125, 0.125], [0.125, 0.125]],
                    ]
                ]
            ],
        ),
    ),
    (
        "test_adaptive_avg_pool3d_backward_multi_channel",
        dict(
            batch_size=1,
            channels=2,
            depth=2,
            height=2,
            width=2,
            depth_out=1,
            height_out=1,
            width_out=1,
        ),
        dict(
            expected=[
                [
                    [
                        [[0.125, 0.125], [0.125, 0.125]],
                        [[0.125, 0.125], [0.125, 0.125]],
                    ],
                    [
                        [[0.125, 0.125], [0.125, 0.125]],
                        [[0.125, 0.125], [0.125, 0.125]],
                    ],
                ]
            ],
        ),
    ),
    (
        "test_adaptive_avg_pool3d_backward_output_1",
        dict(
            batch_size=1,
            channels=1,
            depth=4,
            height=4,
            width=4,
            depth_out=1,
            height_out=1,
            width_out=1,
        ),
        dict(
            expected=np.full((1, 1, 4, 4, 4), 1.0 / 64.0).tolist(),
        ),
    ),
]

# Max pool tests spell their options out; per case: burn's test name (suffixed _floor/_ceil
# where one test makes both calls), the options, the input x and the expectations.
# burn: crates/burn-backend-tests/tests/tensor/float/module/maxpool1d.rs
MAX_POOL1D = [
    (
        "test_max_pool1d_simple",
        dict(kernel_size=3, stride=1, padding=0, dilation=1, ceil_mode=False),
        [
            [
                [0.9861, 0.5474, 0.4477, 0.0732, 0.3548, 0.8221],
                [0.8148, 0.5474, 0.9490, 0.7890, 0.5537, 0.5689],
            ]
        ],
        dict(
            expected=[
                [
                    [0.9861, 0.5474, 0.4477, 0.8221],
                    [0.949, 0.949, 0.949, 0.789],
                ]
            ]
        ),
    ),
    (
        "test_max_pool1d_different_padding_stride_kernel",
        dict(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False),
        [[[0.6309, 0.6112, 0.6998, 0.4708]]],
        dict(expected=[[[0.6309, 0.6998]]]),
    ),
    (
        "test_max_pool1d_with_neg",
        dict(kernel_size=3, stride=1, padding=1, dilation=1, ceil_mode=False),
        [[[-0.6309, -0.6112, -0.6998, -0.4708]]],
        dict(expected=[[[-0.6112, -0.6112, -0.4708, -0.4708]]]),
    ),
    (
        "test_max_pool1d_with_dilation",
        dict(kernel_size=2, stride=1, padding=1, dilation=2, ceil_mode=False),
        [
            [
                [0.9861, 0.5474, 0.4477, 0.0732, 0.3548, 0.8221],
                [0.8148, 0.5474, 0.9490, 0.7890, 0.5537, 0.5689],
            ]
        ],
        dict(
            expected=[
                [
                    [0.5474, 0.9861, 0.5474, 0.4477, 0.8221, 0.3548],
                    [0.5474, 0.9490, 0.7890, 0.9490, 0.7890, 0.5537],
                ]
            ]
        ),
    ),
    (
        "test_max_pool1d_with_indices",
        dict(kernel_size=2, stride=1, padding=0, dilation=1, ceil_mode=False),
        [[[0.2479, 0.6386, 0.3166, 0.5742]]],
        dict(expected=[[[0.6386, 0.6386, 0.5742]]], indices=[[[1, 1, 3]]]),
    ),
    (
        "test_max_pool1d_complex",
        dict(kernel_size=4, stride=1, padding=2, dilation=1, ceil_mode=False),
        [[[0.5388, 0.0676, 0.7122, 0.8316, 0.0653]]],
        dict(
            expected=[[[0.5388, 0.7122, 0.8316, 0.8316, 0.8316, 0.8316]]],
            indices=[[[0, 2, 3, 3, 3, 3]]],
        ),
    ),
    (
        "test_max_pool1d_ceil_mode_floor",
        dict(kernel_size=3, stride=2, padding=0, dilation=1, ceil_mode=False),
        [[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]],
        dict(expected=[[[3.0, 5.0]]]),
    ),
    (
        "test_max_pool1d_ceil_mode_ceil",
        dict(kernel_size=3, stride=2, padding=0, dilation=1, ceil_mode=True),
        [[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]],
        dict(expected=[[[3.0, 5.0, 6.0]]]),
    ),
]

# burn: crates/burn-backend-tests/tests/autodiff/maxpool1d.rs
MAX_POOL1D_GRADS = [
    (
        "test_max_pool1d_simple",
        dict(kernel_size=4, stride=1, padding=0, dilation=1, ceil_mode=False),
        [[[0.9861, 0.5474, 0.4477, 0.0732, 0.3548, 0.8221]]],
        dict(x_grad=[[[1.0, 1.0, 0.0, 0.0, 0.0, 1.0]]]),
    ),
    (
        "test_max_pool1d_with_dilation",
        dict(kernel_size=4, stride=1, padding=0, dilation=2, ceil_mode=False),
        [
            [
                [
                    0.5388,
                    0.0676,
                    0.7122,
                    0.8316,
                    0.0653,
                    0.9154,
                    0.1536,
                    0.9089,
                    0.8016,
                    0.7518,
                    0.2073,
                    0.0501,
                    0.8811,
                    0.5604,
                    0.5075,
                    0.4384,
                    0.9963,
                    0.9698,
                    0.4988,
                    0.2609,
                    0.3391,
                    0.2230,
                    0.4610,
                    0.5365,
                    0.6880,
                ]
            ]
        ],
        dict(
            x_grad=[
                [
                    [
                        0.0,
                        0.0,
                        1.0,
                        0.0,
                        0.0,
                        3.0,
                        0.0,
                        1.0,
                        2.0,
                        1.0,
                        0.0,
                        0.0,
                        2.0,
                        0.0,
                        0.0,
                        0.0,
                        4.0,
                        4.0,
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        0.0,
                        1.0,
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool1d_complex",
        dict(kernel_size=4, stride=1, padding=0, dilation=1, ceil_mode=False),
        [
            [
                [
                    0.5388,
                    0.0676,
                    0.7122,
                    0.8316,
                    0.0653,
                    0.9154,
                    0.1536,
                    0.9089,
                    0.8016,
                    0.7518,
                    0.2073,
                    0.0501,
                    0.8811,
                    0.5604,
                    0.5075,
                    0.4384,
                    0.9963,
                    0.9698,
                    0.4988,
                    0.2609,
                    0.3391,
                    0.2230,
                    0.4610,
                    0.5365,
                    0.6880,
                ]
            ]
        ],
        dict(
            x_grad=[
                [
                    [
                        0.0,
                        0.0,
                        0.0,
                        2.0,
                        0.0,
                        4.0,
                        0.0,
                        2.0,
                        1.0,
                        0.0,
                        0.0,
                        0.0,
                        4.0,
                        0.0,
                        0.0,
                        0.0,
                        4.0,
                        1.0,
                        1.0,
                        0.0,
                        0.0,
                        0.0,
                        1.0,
                        1.0,
                        1.0,
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool1d_complex_with_padding",
        dict(kernel_size=4, stride=1, padding=2, dilation=1, ceil_mode=False),
        [
            [
                [
                    0.5388,
                    0.0676,
                    0.7122,
                    0.8316,
                    0.0653,
                    0.9154,
                    0.1536,
                    0.9089,
                    0.8016,
                    0.7518,
                    0.2073,
                    0.0501,
                    0.8811,
                    0.5604,
                    0.5075,
                    0.4384,
                    0.9963,
                    0.9698,
                    0.4988,
                    0.2609,
                    0.3391,
                    0.2230,
                    0.4610,
                    0.5365,
                    0.6880,
                ]
            ]
        ],
        dict(
            x_grad=[
                [
                    [
                        1.0,
                        0.0,
                        1.0,
                        2.0,
                        0.0,
                        4.0,
                        0.0,
                        2.0,
                        1.0,
                        0.0,
                        0.0,
                        0.0,
                        4.0,
                        0.0,
                        0.0,
                        0.0,
                        4.0,
                        1.0,
                        1.0,
                        0.0,
                        0.0,
                        0.0,
                        1.0,
                        1.0,
                        3.0,
                    ]
                ]
            ]
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/tensor/float/module/maxpool2d.rs
MAX_POOL2D = [
    (
        "test_max_pool2d_simple",
        dict(kernel_size=[3, 3], stride=[1, 1], padding=[1, 1], dilation=[1, 1], ceil_mode=False),
        [
            [
                [
                    [0.9861, 0.5474, 0.4477, 0.0732, 0.3548, 0.8221],
                    [0.8148, 0.5474, 0.9490, 0.7890, 0.5537, 0.5689],
                    [0.5986, 0.2059, 0.4897, 0.6136, 0.2965, 0.6182],
                    [0.1485, 0.9540, 0.4023, 0.6176, 0.7111, 0.3392],
                    [0.3703, 0.0472, 0.2771, 0.1868, 0.8855, 0.5605],
                    [0.5063, 0.1638, 0.9432, 0.7836, 0.8696, 0.1068],
                ],
                [
                    [0.8872, 0.0137, 0.1652, 0.5505, 0.6127, 0.6473],
                    [0.1128, 0.0888, 0.1152, 0.5456, 0.6199, 0.7947],
                    [0.5911, 0.7781, 0.7256, 0.6578, 0.0989, 0.9149],
                    [0.5879, 0.5189, 0.6561, 0.0578, 0.7025, 0.6426],
                    [0.9590, 0.0325, 0.6455, 0.6248, 0.2009, 0.1544],
                    [0.7339, 0.1369, 0.6598, 0.5528, 0.6775, 0.1572],
                ],
            ],
            [
                [
                    [0.6853, 0.6439, 0.4639, 0.5573, 0.2723, 0.5910],
                    [0.5419, 0.7729, 0.6743, 0.8956, 0.2997, 0.9546],
                    [0.0334, 0.2178, 0.6917, 0.4958, 0.3357, 0.6584],
                    [0.7358, 0.9074, 0.2462, 0.5159, 0.6420, 0.2441],
                    [0.7602, 0.6297, 0.6073, 0.5937, 0.8037, 0.4881],
                    [0.8859, 0.0974, 0.3954, 0.6763, 0.1078, 0.7467],
                ],
                [
                    [0.2991, 0.5012, 0.8024, 0.7653, 0.9378, 0.7952],
                    [0.7393, 0.2336, 0.9521, 0.2719, 0.8445, 0.0454],
                    [0.6479, 0.9822, 0.7905, 0.0318, 0.2474, 0.0628],
                    [0.9955, 0.7591, 0.4140, 0.3215, 0.4349, 0.1527],
                    [0.8064, 0.0164, 0.4002, 0.2024, 0.6128, 0.5827],
                    [0.5368, 0.7895, 0.8727, 0.7793, 0.0910, 0.3421],
                ],
            ],
        ],
        dict(
            expected=[
                [
                    [
                        [0.9861, 0.9861, 0.9490, 0.9490, 0.8221, 0.8221],
                        [0.9861, 0.9861, 0.9490, 0.9490, 0.8221, 0.8221],
                        [0.9540, 0.9540, 0.9540, 0.9490, 0.7890, 0.7111],
                        [0.9540, 0.9540, 0.9540, 0.8855, 0.8855, 0.8855],
                        [0.9540, 0.9540, 0.9540, 0.9432, 0.8855, 0.8855],
                        [0.5063, 0.9432, 0.9432, 0.9432, 0.8855, 0.8855],
                    ],
                    [
                        [0.8872, 0.8872, 0.5505, 0.6199, 0.7947, 0.7947],
                        [0.8872, 0.8872, 0.7781, 0.7256, 0.9149, 0.9149],
                        [0.7781, 0.7781, 0.7781, 0.7256, 0.9149, 0.9149],
                        [0.9590, 0.9590, 0.7781, 0.7256, 0.9149, 0.9149],
                        [0.9590, 0.9590, 0.6598, 0.7025, 0.7025, 0.7025],
                        [0.9590, 0.9590, 0.6598, 0.6775, 0.6775, 0.6775],
                    ],
                ],
                [
                    [
                        [0.7729, 0.7729, 0.8956, 0.8956, 0.9546, 0.9546],
                        [0.7729, 0.7729, 0.8956, 0.8956, 0.9546, 0.9546],
                        [0.9074, 0.9074, 0.9074, 0.8956, 0.9546, 0.9546],
                        [0.9074, 0.9074, 0.9074, 0.8037, 0.8037, 0.8037],
                        [0.9074, 0.9074, 0.9074, 0.8037, 0.8037, 0.8037],
                        [0.8859, 0.8859, 0.6763, 0.8037, 0.8037, 0.8037],
                    ],
                    [
                        [0.7393, 0.9521, 0.9521, 0.9521, 0.9378, 0.9378],
                        [0.9822, 0.9822, 0.9822, 0.9521, 0.9378, 0.9378],
                        [0.9955, 0.9955, 0.9822, 0.9521, 0.8445, 0.8445],
                        [0.9955, 0.9955, 0.9822, 0.7905, 0.6128, 0.6128],
                        [0.9955, 0.9955, 0.8727, 0.8727, 0.7793, 0.6128],
                        [0.8064, 0.8727, 0.8727, 0.8727, 0.7793, 0.6128],
                    ],
                ],
            ]
        ),
    ),
    (
        "test_max_pool2d_different_padding_stride_kernel",
        dict(kernel_size=[3, 1], stride=[1, 2], padding=[1, 0], dilation=[1, 1], ceil_mode=False),
        [
            [
                [
                    [0.6309, 0.6112, 0.6998],
                    [0.4708, 0.9161, 0.5402],
                    [0.4577, 0.7397, 0.9870],
                    [0.6380, 0.4352, 0.5884],
                    [0.6277, 0.5139, 0.4525],
                    [0.9333, 0.9846, 0.5006],
                ]
            ]
        ],
        dict(
            expected=[
                [
                    [
                        [0.6309, 0.6998],
                        [0.6309, 0.9870],
                        [0.6380, 0.9870],
                        [0.6380, 0.9870],
                        [0.9333, 0.5884],
                        [0.9333, 0.5006],
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool2d_with_neg",
        dict(kernel_size=[3, 3], stride=[1, 1], padding=[1, 1], dilation=[1, 1], ceil_mode=False),
        (
            -np.array(
                [
                    [
                        [
                            [0.6309, 0.6112, 0.6998],
                            [0.4708, 0.9161, 0.5402],
                            [0.4577, 0.7397, 0.9870],
                            [0.6380, 0.4352, 0.5884],
                            [0.6277, 0.5139, 0.4525],
                            [0.9333, 0.9846, 0.5006],
                        ]
                    ]
                ]
            )
        ).tolist(),
        dict(
            expected=[
                [
                    [
                        [-0.4708, -0.4708, -0.5402],
                        [-0.4577, -0.4577, -0.5402],
                        [-0.4352, -0.4352, -0.4352],
                        [-0.4352, -0.4352, -0.4352],
                        [-0.4352, -0.4352, -0.4352],
                        [-0.5139, -0.4525, -0.4525],
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool2d_with_dilation",
        dict(kernel_size=[2, 2], stride=[1, 1], padding=[0, 0], dilation=[2, 2], ceil_mode=False),
        [
            [
                [
                    [0.9861, 0.9861, 0.9490, 0.9490, 0.8221, 0.8221],
                    [0.9861, 0.9861, 0.9490, 0.9490, 0.8221, 0.8221],
                    [0.9540, 0.9540, 0.9540, 0.9490, 0.7890, 0.7111],
                    [0.9540, 0.9540, 0.9540, 0.8855, 0.8855, 0.8855],
                    [0.9540, 0.9540, 0.9540, 0.9432, 0.8855, 0.8855],
                    [0.5063, 0.9432, 0.9432, 0.9432, 0.8855, 0.8855],
                ]
            ]
        ],
        dict(
            expected=[
                [
                    [
                        [0.9861, 0.9861, 0.9540, 0.9490],
                        [0.9861, 0.9861, 0.9540, 0.9490],
                        [0.9540, 0.9540, 0.9540, 0.9490],
                        [0.9540, 0.9540, 0.9540, 0.9432],
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool2d_with_indices",
        dict(kernel_size=[2, 2], stride=[1, 1], padding=[1, 1], dilation=[1, 1], ceil_mode=False),
        [
            [
                [
                    [0.2479, 0.6386, 0.3166, 0.5742],
                    [0.7065, 0.1940, 0.6305, 0.8959],
                    [0.5416, 0.8602, 0.8129, 0.1662],
                    [0.3358, 0.3059, 0.8293, 0.0990],
                ]
            ]
        ],
        dict(
            expected=[
                [
                    [
                        [0.2479, 0.6386, 0.6386, 0.5742, 0.5742],
                        [0.7065, 0.7065, 0.6386, 0.8959, 0.8959],
                        [0.7065, 0.8602, 0.8602, 0.8959, 0.8959],
                        [0.5416, 0.8602, 0.8602, 0.8293, 0.1662],
                        [0.3358, 0.3358, 0.8293, 0.8293, 0.0990],
                    ]
                ]
            ],
            indices=[
                [
                    [
                        [0, 1, 1, 3, 3],
                        [4, 4, 1, 7, 7],
                        [4, 9, 9, 7, 7],
                        [8, 9, 9, 14, 11],
                        [12, 12, 14, 14, 15],
                    ]
                ]
            ],
        ),
    ),
    (
        "test_max_pool2d_complex",
        dict(kernel_size=[4, 2], stride=[1, 2], padding=[2, 1], dilation=[1, 1], ceil_mode=False),
        [
            [
                [
                    [0.5388, 0.0676, 0.7122, 0.8316, 0.0653],
                    [0.9154, 0.1536, 0.9089, 0.8016, 0.7518],
                    [0.2073, 0.0501, 0.8811, 0.5604, 0.5075],
                    [0.4384, 0.9963, 0.9698, 0.4988, 0.2609],
                    [0.3391, 0.2230, 0.4610, 0.5365, 0.6880],
                ]
            ]
        ],
        dict(
            expected=[
                [
                    [
                        [0.9154, 0.9089, 0.8316],
                        [0.9154, 0.9089, 0.8316],
                        [0.9154, 0.9963, 0.8316],
                        [0.9154, 0.9963, 0.8016],
                        [0.4384, 0.9963, 0.688],
                        [0.4384, 0.9963, 0.688],
                    ]
                ]
            ],
            indices=[
                [
                    [
                        [5, 7, 3],
                        [5, 7, 3],
                        [5, 16, 3],
                        [5, 16, 8],
                        [15, 16, 24],
                        [15, 16, 24],
                    ]
                ]
            ],
        ),
    ),
    (
        "test_max_pool2d_ceil_mode_floor",
        dict(kernel_size=[3, 3], stride=[2, 2], padding=[0, 0], dilation=[1, 1], ceil_mode=False),
        [
            [
                [
                    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                    [7.0, 8.0, 9.0, 10.0, 11.0, 12.0],
                    [13.0, 14.0, 15.0, 16.0, 17.0, 18.0],
                    [19.0, 20.0, 21.0, 22.0, 23.0, 24.0],
                    [25.0, 26.0, 27.0, 28.0, 29.0, 30.0],
                    [31.0, 32.0, 33.0, 34.0, 35.0, 36.0],
                ]
            ]
        ],
        dict(expected=[[[[15.0, 17.0], [27.0, 29.0]]]]),
    ),
    (
        "test_max_pool2d_ceil_mode_ceil",
        dict(kernel_size=[3, 3], stride=[2, 2], padding=[0, 0], dilation=[1, 1], ceil_mode=True),
        [
            [
                [
                    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                    [7.0, 8.0, 9.0, 10.0, 11.0, 12.0],
                    [13.0, 14.0, 15.0, 16.0, 17.0, 18.0],
                    [19.0, 20.0, 21.0, 22.0, 23.0, 24.0],
                    [25.0, 26.0, 27.0, 28.0, 29.0, 30.0],
                    [31.0, 32.0, 33.0, 34.0, 35.0, 36.0],
                ]
            ]
        ],
        dict(expected=[[[[15.0, 17.0, 18.0], [27.0, 29.0, 30.0], [33.0, 35.0, 36.0]]]]),
    ),
    (
        "test_max_pool2d_ceil_mode_with_indices",
        dict(kernel_size=[3, 3], stride=[2, 2], padding=[0, 0], dilation=[1, 1], ceil_mode=True),
        [
            [
                [
                    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
                    [6.0, 7.0, 8.0, 9.0, 10.0, 11.0],
                    [12.0, 13.0, 14.0, 15.0, 16.0, 17.0],
                    [18.0, 19.0, 20.0, 21.0, 22.0, 23.0],
                    [24.0, 25.0, 26.0, 27.0, 28.0, 29.0],
                    [30.0, 31.0, 32.0, 33.0, 34.0, 35.0],
                ]
            ]
        ],
        dict(
            expected=[[[[14.0, 16.0, 17.0], [26.0, 28.0, 29.0], [32.0, 34.0, 35.0]]]],
            indices=[[[[14, 16, 17], [26, 28, 29], [32, 34, 35]]]],
        ),
    ),
    (
        "test_max_pool2d_ceil_mode_with_indices_and_padding",
        dict(kernel_size=[3, 3], stride=[2, 2], padding=[1, 1], dilation=[1, 1], ceil_mode=True),
        [
            [
                [
                    [0.0, 1.0, 2.0, 3.0, 4.0],
                    [5.0, 6.0, 7.0, 8.0, 9.0],
                    [10.0, 11.0, 12.0, 13.0, 14.0],
                    [15.0, 16.0, 17.0, 18.0, 19.0],
                    [20.0, 21.0, 22.0, 23.0, 24.0],
                ]
            ]
        ],
        dict(
            expected=[[[[6.0, 8.0, 9.0], [16.0, 18.0, 19.0], [21.0, 23.0, 24.0]]]],
            indices=[[[[6, 8, 9], [16, 18, 19], [21, 23, 24]]]],
        ),
    ),
]

# burn: crates/burn-backend-tests/tests/autodiff/maxpool2d.rs
MAX_POOL2D_GRADS = [
    (
        "test_max_pool2d_simple_1",
        dict(kernel_size=[3, 3], stride=[1, 1], padding=[0, 0], dilation=[1, 1], ceil_mode=False),
        [
            [
                [
                    [0.2479, 0.6386, 0.3166, 0.5742],
                    [0.7065, 0.1940, 0.6305, 0.8959],
                    [0.5416, 0.8602, 0.8129, 0.1662],
                    [0.3358, 0.3059, 0.8293, 0.0990],
                ]
            ]
        ],
        dict(
            x_grad=[
                [
                    [
                        [0.0, 0.0, 0.0, 0.0],
                        [0.0, 0.0, 0.0, 2.0],
                        [0.0, 2.0, 0.0, 0.0],
                        [0.0, 0.0, 0.0, 0.0],
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool2d_simple_2",
        dict(kernel_size=[2, 2], stride=[1, 1], padding=[1, 1], dilation=[1, 1], ceil_mode=False),
        [
            [
                [
                    [0.2479, 0.6386, 0.3166, 0.5742],
                    [0.7065, 0.1940, 0.6305, 0.8959],
                    [0.5416, 0.8602, 0.8129, 0.1662],
                    [0.3358, 0.3059, 0.8293, 0.0990],
                ]
            ]
        ],
        dict(
            x_grad=[
                [
                    [
                        [1.0, 3.0, 0.0, 2.0],
                        [3.0, 0.0, 0.0, 4.0],
                        [1.0, 4.0, 0.0, 1.0],
                        [2.0, 0.0, 3.0, 1.0],
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool2d_with_dilation",
        dict(kernel_size=[2, 2], stride=[1, 1], padding=[1, 1], dilation=[2, 2], ceil_mode=False),
        [
            [
                [
                    [0.2479, 0.6386, 0.3166, 0.5742],
                    [0.7065, 0.1940, 0.6305, 0.8959],
                    [0.5416, 0.8602, 0.8129, 0.1662],
                    [0.3358, 0.3059, 0.8293, 0.0990],
                ]
            ]
        ],
        dict(
            x_grad=[
                [
                    [
                        [0.0, 0.0, 0.0, 0.0],
                        [1.0, 1.0, 1.0, 2.0],
                        [0.0, 4.0, 4.0, 0.0],
                        [0.0, 1.0, 2.0, 0.0],
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool2d_complex",
        dict(kernel_size=[4, 2], stride=[1, 2], padding=[2, 1], dilation=[1, 1], ceil_mode=False),
        [
            [
                [
                    [0.5388, 0.0676, 0.7122, 0.8316, 0.0653],
                    [0.9154, 0.1536, 0.9089, 0.8016, 0.7518],
                    [0.2073, 0.0501, 0.8811, 0.5604, 0.5075],
                    [0.4384, 0.9963, 0.9698, 0.4988, 0.2609],
                    [0.3391, 0.2230, 0.4610, 0.5365, 0.6880],
                ]
            ]
        ],
        dict(
            x_grad=[
                [
                    [
                        [0.0, 0.0, 0.0, 3.0, 0.0],
                        [4.0, 0.0, 2.0, 1.0, 0.0],
                        [0.0, 0.0, 0.0, 0.0, 0.0],
                        [2.0, 4.0, 0.0, 0.0, 0.0],
                        [0.0, 0.0, 0.0, 0.0, 2.0],
                    ]
                ]
            ]
        ),
    ),
    (
        "test_max_pool2d_ceil_mode",
        dict(kernel_size=[3, 3], stride=[2, 2], padding=[0, 0], dilation=[1, 1], ceil_mode=True),
        [
            [
                [
                    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                    [7.0, 8.0, 9.0, 10.0, 11.0, 12.0],
                    [13.0, 14.0, 15.0, 16.0, 17.0, 18.0],
                    [19.0, 20.0, 21.0, 22.0, 23.0, 24.0],
                    [25.0, 26.0, 27.0, 28.0, 29.0, 30.0],
                    [31.0, 32.0, 33.0, 34.0, 35.0, 36.0],
                ]
            ]
        ],
        dict(
            x_grad=[
                [
                    [
                        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                        [0.0, 0.0, 1.0, 0.0, 1.0, 1.0],
                        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                        [0.0, 0.0, 1.0, 0.0, 1.0, 1.0],
                        [0.0, 0.0, 1.0, 0.0, 1.0, 1.0],
                    ]
                ]
            ]
        ),
    ),
]
