import { graphql } from '../../gql';

// The desk's recurring bookings (docs/bookings.md, "Recurring bookings").

export const SeriesPreviewQuery = graphql(`
  query DashboardSeriesPreview($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!, $rule: String!) {
    previewBookingSeries(objectId: $objectId, startTime: $startTime, endTime: $endTime, rule: $rule) {
      rule
      availableCount
      conflictCount
      totalPrice
      occurrences {
        index
        startTime
        endTime
        available
        conflictCode
        conflictMessage
        totalPrice
        currency
      }
    }
  }
`);

export const CreateSeriesMutation = graphql(`
  mutation DashboardCreateSeries(
    $objectId: ID!
    $guestName: String!
    $guestEmail: String!
    $guestPhone: String
    $startTime: DateTime!
    $endTime: DateTime!
    $rule: String!
    $status: BookingStatus
  ) {
    createBookingSeries(
      objectId: $objectId
      guestName: $guestName
      guestEmail: $guestEmail
      guestPhone: $guestPhone
      startTime: $startTime
      endTime: $endTime
      rule: $rule
      status: $status
    ) {
      series {
        id
        rule
      }
      bookings {
        id
        guestName
        startTime
        endTime
        totalPrice
        currency
        status
      }
      conflicts {
        index
        startTime
      }
    }
  }
`);
